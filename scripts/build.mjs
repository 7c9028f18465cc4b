// Bundles src/ into dist/ with esbuild: one entry, and a chunk per lazily imported command group
// and capability (dynamic import() points become split points). Dependencies stay in node_modules,
// except the few on start-up paths that are many small CommonJS files: bundled, they load as one
// module instead of dozens (yaml alone cost `policy eval` ~40 ms of resolving and compiling).
//
// dist/ is CommonJS (issue 14, start-up): esbuild splits only ES modules, so the chunks are built as
// ESM and then each is turned into CommonJS. On node 20 the ESM loader costs a process ~40% of a
// bare `node -e 0` before the first line of hubctl runs (an empty .mjs file against an empty .cjs
// one, measured in bench/startup.mjs's conditions); CommonJS modules load through require() and pay
// nothing of it. Chunks still load on demand: an import() of a chunk becomes a require() inside a
// promise. An import() of a package stays an import() (chalk, an ES module, loads only to colour);
// conf, an ES module imported statically by the settings writer, is require()d, which node ≥ 20.19
// does without a flag or a warning.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

// valibot is bundled too: tree-shaken into the network chunks, it costs only what a command's schemas use.
const BUNDLED = new Set(['yaml', 'commander', 'valibot']);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));
const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const TARGET = 'node20.19';

rmSync(DIST, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: TARGET,
  external,
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

// ESM chunks → CommonJS. Bundled CommonJS (commander) reaches node builtins through esbuild's
// __require, which finds the module's own require once the chunk is CommonJS.
const CHUNK_IMPORT = /\bimport\(("\.\.?\/[^"]+\.js")\)/g;
// import.meta.url (createRequire in src/http) becomes the chunk's own file URL.
const META_URL = '__hubctl_import_meta_url';
for (const file of jsFiles(DIST)) {
  const source = readFileSync(file, 'utf8');
  const usesMetaUrl = source.includes('import.meta.url');
  const { code } = await transform(source, {
    format: 'cjs',
    platform: 'node',
    target: TARGET,
    // Keep import() as written; chunk imports are rewritten below, package imports stay.
    supported: { 'dynamic-import': true },
    ...(usesMetaUrl
      ? {
          define: { 'import.meta.url': META_URL },
          banner: `const ${META_URL} = require('node:url').pathToFileURL(__filename).href;`,
        }
      : {}),
  });
  if (code.includes('import.meta')) throw new Error(`${file}: import.meta is left in CommonJS`);
  const lazy = code.replace(CHUNK_IMPORT, 'Promise.resolve().then(() => require($1))');
  if (/\bimport\("\./.test(lazy)) throw new Error(`${file}: a chunk import was left as import()`);
  writeFileSync(file, lazy);
}
// package.json says "type": "module"; dist/ and bin/ say otherwise for themselves.
writeFileSync(join(DIST, 'package.json'), '{ "type": "commonjs" }\n');
// The top-level help, rendered by commander for src/help-text.ts (at 80 columns and unbounded).
const require = createRequire(import.meta.url);
const chunk = (prefix) =>
  join(
    DIST,
    'chunks',
    readdirSync(join(DIST, 'chunks')).find((f) => f.startsWith(prefix)),
  );
const { topLevelHelp } = require(chunk('program-'));
const { HELP_WIDTH, renderedHelp } = require(join(DIST, 'cli.js'));
const help = renderedHelp(await topLevelHelp(HELP_WIDTH), await topLevelHelp(Number.MAX_SAFE_INTEGER));
writeFileSync(join(DIST, 'help.json'), JSON.stringify(help));

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}
