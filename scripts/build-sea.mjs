// `npm run build:sea`: hubctl as one executable file (node's single executable applications).
// esbuild bundles src/cli.ts with every dependency into one CommonJS script (the runtime requires of
// src/http, for proxies and NO_PROXY CIDRs, become bundled requires; jq-wasm's WebAssembly is taken
// inlined), node writes it into a blob, and postject injects the blob into a copy of this node.
// Output: dist-sea/hubctl (and dist-sea/hubctl.cjs, the bundle); with --snapshot, dist-sea-snapshot/.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// --snapshot: a V8 start-up snapshot instead of a code cache (the moonshot of issue 26): the bundle
// and the `policy eval` path are evaluated at build time, and a run starts from their heap.
const SNAPSHOT = process.argv.includes('--snapshot');
const OUT = join(ROOT, SNAPSHOT ? 'dist-sea-snapshot' : 'dist-sea');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const bundle = join(OUT, 'hubctl.cjs');
// The executable's entry, as bin/hubctl.js is the package's: the real process's deps are passed
// explicitly, so main() takes none of the paths that read dist/ beside it (the V8 code cache of
// dist/chunks, the pre-rendered help.json), which the executable does not have.
const RUN = 'main(process.argv.slice(2), realDeps()).then((code) => { process.exitCode = code; });';
const ENTRY = SNAPSHOT
  ? `import { main, realDeps } from './src/cli.ts';
// Evaluated into the snapshot: the commander-free policy eval path and what it loads.
import * as fastEval from './src/commands/policy/fast-eval.ts';
globalThis.__hubctlPreloaded = fastEval;
require('node:v8').startupSnapshot.setDeserializeMainFunction(() => { ${RUN} });`
  : `import { main, realDeps } from './src/cli.ts';
${RUN}`;
await build({
  stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'sea-entry.ts' },
  outfile: bundle,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  minify: true,
  legalComments: 'none',
  logLevel: 'error',
  define: { 'import.meta.url': '__hubctl_sea_url' },
  banner: { js: `const __hubctl_sea_url = require('node:url').pathToFileURL(process.execPath).href;` },
  alias: { 'jq-wasm': 'jq-wasm/inline' },
  plugins: [
    {
      name: 'bundled-requires',
      setup(b) {
        // `createRequire(import.meta.url)(x)` loads x at run time from node_modules, which an
        // executable does not have: as a plain require, esbuild bundles x.
        b.onLoad({ filter: /src[\\/]http[\\/](dispatcher|proxy)\.ts$/ }, (args) => {
          const source = readFileSync(args.path, 'utf8')
            .replace(/const require = createRequire\(import\.meta\.url\);\n/, '')
            .replace(/createRequire\(import\.meta\.url\)\(/g, 'require(');
          return { contents: source, loader: 'ts' };
        });
      },
    },
  ],
});

const blob = join(OUT, 'sea-prep.blob');
const config = join(OUT, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: bundle,
    output: blob,
    disableExperimentalSEAWarning: true,
    // A snapshot holds compiled code already; node takes one or the other.
    ...(SNAPSHOT ? { useSnapshot: true } : { useCodeCache: true }),
  }),
);
execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });
const exe = join(OUT, 'hubctl');
copyFileSync(process.execPath, exe);
chmodSync(exe, 0o755);
execFileSync(
  process.execPath,
  [
    join(ROOT, 'node_modules/postject/dist/cli.js'),
    exe,
    'NODE_SEA_BLOB',
    blob,
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
const mib = (f) => (statSync(f).size / 1024 / 1024).toFixed(1);
console.log(
  `${SNAPSHOT ? 'dist-sea-snapshot' : 'dist-sea'}/hubctl: ${mib(exe)} MiB (the bundle ${mib(bundle)} MiB, node ${mib(process.execPath)} MiB)`,
);
