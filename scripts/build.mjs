// Bundles src/ into dist/ with esbuild: one entry, and a chunk per lazily imported command group
// and capability (dynamic import() points become split points). Dependencies stay in node_modules,
// except the few on start-up paths that are many small CommonJS files: bundled, they load as one
// module instead of dozens (yaml alone cost `policy eval` ~40 ms of resolving and compiling).
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// valibot is bundled too: tree-shaken into the network chunks, it costs only what a command's schemas use.
const BUNDLED = new Set(['yaml', 'commander', 'valibot']);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external,
  // Bundled CommonJS calls require() for node builtins; give every output file one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  plugins: [
    {
      // yaml's "node" export is CommonJS; its ESM build (named exports, no browser-only code) bundles
      // cleanly and keeps `await import('yaml')` returning the named functions.
      name: 'yaml-esm',
      setup(b) {
        b.onResolve({ filter: /^yaml$/ }, () => ({
          path: fileURLToPath(new URL('../node_modules/yaml/browser/index.js', import.meta.url)),
        }));
      },
    },
  ],
});
