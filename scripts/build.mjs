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
// promise, and so does an import() of a package (chalk, an ES module, loads only to colour).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

// valibot is bundled too: tree-shaken into the network chunks, it costs only what a command's schemas use.
// undici too: its public index is ~110 CommonJS files (fetch, WebSocket, caches and mocks with the
// dispatchers), ~100 ms to resolve, read and compile from node_modules; bundled, it is one chunk of
// dist/chunks that the V8 code cache (src/compile-cache.ts) covers, ~35 ms to load with its cache.
const BUNDLED = new Set(['yaml', 'commander', 'valibot', 'undici']);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !BUNDLED.has(name));
const DIST = fileURLToPath(new URL('../dist', import.meta.url));
const TARGET = 'node20.19';

rmSync(DIST, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: { cli: 'src/cli.ts' },
  metafile: true,
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
// An import() of a package or builtin becomes a require() too (node ≥ 20.19 require()s an ES module
// such as chalk without a flag or a warning), with import()'s namespace shape: `default` is a
// CommonJS module's exports. So no chunk holds an import(), and every chunk can go through the V8
// code cache (src/compile-cache.ts), which cannot compile an import() on node 20.
const PACKAGE_IMPORT = /\bimport\(("[^".][^"]*")\)/g;
const INTEROP = '__hubctl_namespace';
const INTEROP_FUNCTION = `function ${INTEROP}(m) { return m && m.__esModule ? m : Object.assign({ default: m }, m); }`;
// import.meta.url (createRequire in src/http) becomes the chunk's own file URL.
const META_URL = '__hubctl_import_meta_url';
for (const file of jsFiles(DIST)) {
  const source = readFileSync(file, 'utf8');
  const usesMetaUrl = source.includes('import.meta.url');
  const { code } = await transform(source, {
    format: 'cjs',
    platform: 'node',
    target: TARGET,
    // Keep import() as written; it is rewritten below.
    supported: { 'dynamic-import': true },
    ...(usesMetaUrl
      ? {
          define: { 'import.meta.url': META_URL },
          banner: `const ${META_URL} = require('node:url').pathToFileURL(__filename).href;`,
        }
      : {}),
  });
  if (code.includes('import.meta')) throw new Error(`${file}: import.meta is left in CommonJS`);
  const lazy = code
    .replace(CHUNK_IMPORT, 'Promise.resolve().then(() => require($1))')
    .replace(PACKAGE_IMPORT, `Promise.resolve().then(() => ${INTEROP}(require($1)))`);
  if (/\bimport\("/.test(lazy)) throw new Error(`${file}: an import() was left in CommonJS`);
  writeFileSync(file, asciiOnly(lazy.includes(INTEROP) ? withPrologue(lazy, INTEROP_FUNCTION) : lazy));
}
packChunk(join(DIST, 'cli.js'));
/** The chunk of dist/ that is the entry point `entry` (a module imported lazily), by metafile. */
const chunkOf = (entry) => {
  const out = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === entry)?.[0];
  if (out === undefined) throw new Error(`no chunk of its own for ${entry}`);
  return join(DIST, relative('dist', out));
};
// The command tree every command but the fast paths builds (commander and the global options).
packChunk(chunkOf('src/program.ts'));
// A registry command's two loads of many chunks each: the `image` group as the command tree is
// built, and the HTTP layer with undici when its first request is made (src/context.ts's http()).
// The image pack also holds what an image command between registries imports next, lazily, before
// its first request (issue 27, a copy's fixed cost: ~25 files to resolve, read and compile, one by
// one): the context, the registry client and back ends, the registry settings and the V8 flag's
// module. They run as the pack loads, before the group's own code; undici stays in the HTTP
// layer's pack, loaded only by a command that makes a request.
const registryPath = [
  'src/context.ts',
  'src/http/liftoff.ts',
  'src/api/registry/client.ts',
  'src/image/registry/source.ts',
  'src/image/registry/destination.ts',
  'src/config/registry-settings.ts',
  'src/config/read.ts',
].map(chunkOf);
packChunk(chunkOf('src/commands/image/index.ts'), { alsoLazy: registryPath });
// `image copy SRC DST` without commander (src/commands/image/fast-copy.ts): the same, in one file.
packChunk(chunkOf('src/commands/image/fast-copy.ts'), { alsoLazy: registryPath });
packChunk(chunkOf('src/http/client.ts'));
packChunk(
  join(
    DIST,
    'chunks',
    readdirSync(join(DIST, 'chunks')).find((f) => f.startsWith('fast-eval-')),
  ),
);
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
// The compile cache's directory names this build (src/compile-cache.ts's BUILD): a hash of every
// chunk, as a packed file's name does not cover all it holds.
const BUILD_PLACEHOLDER = 'hubctl-unbuilt-chunks';
const chunksHash = createHash('sha256');
for (const name of readdirSync(join(DIST, 'chunks')).sort())
  chunksHash.update(`${name}\0${readFileSync(join(DIST, 'chunks', name), 'utf8')}\0`);
const buildId = chunksHash.digest('hex').slice(0, 16);
const holders = jsFiles(DIST).filter((f) => readFileSync(f, 'utf8').includes(BUILD_PLACEHOLDER));
if (holders.length === 0) throw new Error(`no chunk holds ${BUILD_PLACEHOLDER} (src/compile-cache.ts)`);
for (const f of holders) writeFileSync(f, readFileSync(f, 'utf8').replaceAll(BUILD_PLACEHOLDER, buildId));

/**
 * Packs a chunk with every chunk it requires when it loads (not those it loads lazily) into its own
 * file: one file to read, compile and resolve instead of a dozen (issue 14, `policy eval`'s start-up,
 * where each module costs ~0.4 ms of resolving, reading and wrapping). Each packed chunk is still the
 * module of its own file name: it is put in require's cache under that name, so a chunk that another
 * one requires later is the same instance (errors stay instances of the same classes), and one that
 * was loaded before the pack is used as it is.
 */
function packChunk(file, { alsoLazy = [] } = {}) {
  const order = [];
  const visit = (path, trail) => {
    if (trail.includes(path))
      throw new Error(`chunks require each other in a loop: ${[...trail, path].join(' → ')}`);
    if (order.includes(path)) return;
    for (const dep of staticRequires(readFileSync(path, 'utf8')))
      visit(join(dirname(path), dep), [...trail, path]);
    order.push(path);
  };
  visit(file, []);
  // `alsoLazy`: chunks imported lazily (an import() is a require in a promise) by the pack's code or
  // by what is loaded before it, packed with what they require as they load, and run before the
  // file's own chunk (which stays last). None may require the file's chunk.
  order.pop();
  for (const lazy of alsoLazy) visit(lazy, [file]);
  order.push(file);
  const root = dirname(file);
  const defined = order.slice(0, -1).map((path) => {
    const name = relative(root, path);
    const body = readFileSync(path, 'utf8');
    return `  define(${JSON.stringify(name)}, function (exports, require, module, __filename, __dirname) {\n${body}\n  });`;
  });
  const packed = withPrologue(
    readFileSync(file, 'utf8'),
    [
      `// Packed by scripts/build.mjs: the ${defined.length} chunks this file requires as it loads, each cached under its own name.`,
      '(() => {',
      '  const Module = require("node:module");',
      '  const loaded = new Map();',
      '  const define = (name, body) => {',
      '    const filename = __dirname + "/" + name;',
      '    let m = Module._cache[filename];',
      '    if (m === undefined) {',
      '      m = new Module(filename, module);',
      '      m.filename = filename;',
      '      m.paths = module.paths;',
      '      Module._cache[filename] = m;',
      '      const dir = filename.slice(0, filename.lastIndexOf("/") + 1);',
      '      const local = (id) => (id.startsWith("./") && loaded.get(dir + id.slice(2))) || m.require(id);',
      '      body.call(m.exports, m.exports, local, m, filename, dir.slice(0, -1));',
      '      m.loaded = true;',
      '    }',
      '    loaded.set(filename, m.exports);',
      '  };',
      ...defined,
      '  const own = require;',
      '  require = (id) => (id.startsWith("./") && loaded.get(__dirname + "/" + id.slice(2))) || own(id);',
      '})();',
    ].join('\n'),
  );
  writeFileSync(file, packed);
}

/** The chunks a chunk requires at its top level (a lazy one is required inside a promise). */
function staticRequires(code) {
  return [...code.matchAll(/^var \w+ = require\("(\.\/[^"]+\.js)"\);$/gm)].map((m) => m[1]);
}

/** Code added at the top of a chunk, after its "use strict" directive (which must stay first). */
function withPrologue(code, prologue) {
  const strict = /^(?:"use strict";|'use strict';)\n/.exec(code);
  const at = strict ? strict[0].length : 0;
  return `${code.slice(0, at)}${prologue}\n${code.slice(at)}`;
}

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/**
 * Non-ASCII characters as \uXXXX. esbuild escapes them everywhere but in the comments it keeps
 * (undici's: "response’s", "§"), and one such character makes V8 hold the whole chunk's
 * source as a two-byte string for the life of the process: undici's chunk, 1 MB of text, took 2.1 MB,
 * and `audit export`'s peak RSS rose ~7 MB with it. An escape reads the same in a comment, a string,
 * a regular expression or an identifier.
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
