// The real CLI bundled as scripts/build.mjs does (node_modules resolved from the repository), for
// tests that run it in a child process of their own: killed with SIGKILL, or run as another user.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const repoRoot = join(import.meta.dirname, '..', '..');

export interface BundledBin {
  /** The bundled entry point, for `node <file> args…`. */
  file: string;
  remove(): void;
}

export async function bundleBin(): Promise<BundledBin> {
  const dir = join(repoRoot, 'node_modules', '.cache', `hubctl-test-${randomBytes(4).toString('hex')}`);
  await build({
    stdin: {
      contents:
        "import { main, realDeps } from './src/cli.ts'; process.exitCode = await main(process.argv.slice(2), realDeps());",
      resolveDir: repoRoot,
      loader: 'ts',
    },
    outfile: join(dir, 'hubctl.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    logLevel: 'error',
  });
  return { file: join(dir, 'hubctl.mjs'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
