// `npm run man`: writes man/hubctl.1 and man/hubctl-GROUP.1 from the command tree (src/man-page.ts).
// The sources are bundled on the fly (esbuild, as the build does) into a temporary module.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'hubctl-man-'));
try {
  const out = join(tmp, 'man.cjs');
  await build({
    stdin: {
      contents: `export { buildProgram } from './src/program.ts'; export { manPages } from './src/man-page.ts'; export { VERSION } from './src/version.ts';`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: out,
    external: ['undici', 'chalk', 'cli-table3', 'cli-progress', 'jq-wasm', 'ipaddr.js'],
    logLevel: 'error',
  });
  const { buildProgram, manPages, VERSION } = createRequire(import.meta.url)(out);
  const quiet = { write: () => true };
  const io = { stdout: quiet, stderr: quiet, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const { program } = await buildProgram({ io, env: {} }, [], 'all');
  const pages = manPages(program, VERSION);
  const dir = join(ROOT, 'man');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.1') && !(f in pages)) rmSync(join(dir, f));
  for (const [name, text] of Object.entries(pages)) writeFileSync(join(dir, name), text);
  console.log(`man/: ${Object.keys(pages).join(' ')}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
