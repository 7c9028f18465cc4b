// The architecture, guarded: which modules may import what (STYLE.md "Layout" and "Imports point one
// way"). Only runtime imports count; `import type` and `import('x').Type` annotations vanish at build.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * Source without comments, each string literal replaced by a numbered placeholder (`'#3'`), so that
 * text inside strings and comments is never taken for code.
 */
function tokenize(text: string): { code: string; strings: string[] } {
  let code = '';
  const strings: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      i = text.indexOf('*/', i + 2);
      i = i < 0 ? text.length : i + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      const start = ++i;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      strings.push(text.slice(start, i++));
      code += `'#${strings.length - 1}'`;
    } else {
      code += c;
      i++;
    }
  }
  return { code, strings };
}

interface ImportRef {
  specifier: string;
  typeOnly: boolean;
}

function importsOf(source: string): ImportRef[] {
  const { code, strings } = tokenize(source);
  const str = (n: string) => strings[Number(n)]!;
  const refs: ImportRef[] = [];
  // import x from 'y'; import { a, type b } from 'y'; import 'y'; export { a } from 'y'; export * from 'y'
  const staticRe = /\b(import|export)\s+(type\s+)?([^';]*?)\s*from\s*'#(\d+)'|\bimport\s+'#(\d+)'/g;
  for (const m of code.matchAll(staticRe)) {
    if (m[5]) {
      refs.push({ specifier: str(m[5]), typeOnly: false });
      continue;
    }
    const clause = m[3] ?? '';
    // `import { type A, type B } from` is type-only too.
    const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
    const allTyped =
      names
        ?.split(',')
        .map((n) => n.trim())
        .filter(Boolean)
        .every((n) => n.startsWith('type ')) === true;
    refs.push({ specifier: str(m[4]!), typeOnly: Boolean(m[2]) || allTyped });
  }
  // import('y') — a type annotation when followed by `.Name` directly.
  for (const m of code.matchAll(/\bimport\(\s*'#(\d+)'\s*\)(\s*\.\s*[A-Za-z_$])?/g)) {
    refs.push({ specifier: str(m[1]!), typeOnly: Boolean(m[2]) });
  }
  return refs;
}

interface SourceFile {
  path: string; // relative to src/, with forward slashes
  code: string;
  runtime: string[];
  /** Runtime and type-only imports alike. */
  all: string[];
}

const files: SourceFile[] = walk(SRC).map((abs) => {
  const text = readFileSync(abs, 'utf8');
  const refs = importsOf(text);
  return {
    path: relative(SRC, abs).split('\\').join('/'),
    code: tokenize(text).code,
    runtime: refs.filter((r) => !r.typeOnly).map((r) => r.specifier),
    all: refs.map((r) => r.specifier),
  };
});

const pkg = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

function violations(allowed: (f: SourceFile) => boolean, packages: string[]): string[] {
  return files
    .filter((f) => !allowed(f))
    .flatMap((f) => f.runtime.filter((s) => packages.includes(pkg(s))).map((s) => `${f.path} imports ${s}`));
}

const IO_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
  'os',
  'process',
  'inspector',
  'v8',
  'vm',
];

/** File → the files of src it imports (relative specifiers only), for the files `within` keeps. */
function importGraph(within: (path: string) => boolean, kind: 'runtime' | 'all'): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const f of files.filter((f) => within(f.path))) {
    const targets = f[kind]
      .filter((s) => s.startsWith('.'))
      .map((s) =>
        relative(SRC, resolve(SRC, dirname(f.path), s))
          .split('\\')
          .join('/')
          .replace(/\.js$/, '.ts'),
      )
      .filter(within);
    edges.set(f.path, targets);
  }
  return edges;
}

/** Every loop a depth-first walk meets, each as `a -> b -> a`. */
function loopsOf(edges: Map<string, string[]>): string[] {
  const loops: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (at: string, path: string[]): void => {
    if (state.get(at) === 'done') return;
    if (state.get(at) === 'open') {
      loops.push([...path.slice(path.indexOf(at)), at].join(' -> '));
      return;
    }
    state.set(at, 'open');
    for (const next of edges.get(at) ?? []) visit(next, [...path, at]);
    state.set(at, 'done');
  };
  for (const start of edges.keys()) visit(start, []);
  return loops;
}

describe('import rules', () => {
  it('the parser sees runtime and type-only imports apart', () => {
    const refs = importsOf(`
      import { a } from 'x1';
      import type { B } from 'x2';
      import { type C, type D } from 'x3';
      import { type E, f } from 'x4';
      export * from 'x5';
      import 'x6';
      // import { g } from 'commented';
      const h = await import('x7');
      let i: import('x8').Dispatcher;
      const s = "import { j } from 'in-a-string'";
    `);
    expect(refs.filter((r) => !r.typeOnly).map((r) => r.specifier)).toEqual(['x1', 'x4', 'x5', 'x6', 'x7']);
    expect(refs.filter((r) => r.typeOnly).map((r) => r.specifier)).toEqual(['x2', 'x3', 'x8']);
  });

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(files.some((f) => f.path === 'http/undici.ts' && f.runtime.some((s) => pkg(s) === 'undici'))).toBe(
      true,
    );
  });

  it('undici through its public API alone: no module of its own by path (a minor release may move them)', () => {
    const deep = files.flatMap((f) =>
      f.all.filter((s) => pkg(s) === 'undici' && s !== 'undici').map((s) => `${f.path} imports ${s}`),
    );
    expect(deep).toEqual([]);
    const patched = files.filter((f) => /\._destroy\s*=/.test(f.code)).map((f) => f.path);
    expect(patched).toEqual([]);
  });

  it('undici only in src/http', () => {
    expect(violations((f) => f.path.startsWith('http/'), ['undici'])).toEqual([]);
  });

  it('valibot only in src/api/answer.ts: server answers are checked at the edge, in one place', () => {
    expect(violations((f) => f.path === 'api/answer.ts', ['valibot'])).toEqual([]);
  });

  it('chalk, cli-table3 and cli-progress only in src/output', () => {
    expect(violations((f) => f.path.startsWith('output/'), ['chalk', 'cli-table3', 'cli-progress'])).toEqual(
      [],
    );
  });

  it('src/policy and src/ref are pure: no IO modules, no process, nothing outside themselves but errors and json-text', () => {
    const pure = files.filter((f) => f.path.startsWith('policy/') || f.path.startsWith('ref/'));
    expect(pure.length).toBeGreaterThan(0);
    const bad: string[] = [];
    for (const f of pure) {
      for (const spec of f.runtime) {
        const bare = spec.replace(/^node:/, '');
        if (IO_MODULES.includes(bare)) bad.push(`${f.path} imports ${spec}`);
        if (['undici', 'chalk', 'cli-table3', 'cli-progress'].includes(pkg(spec)))
          bad.push(`${f.path} imports ${spec}`);
        if (spec.startsWith('.')) {
          const target = relative(SRC, resolve(SRC, dirname(f.path), spec))
            .split('\\')
            .join('/');
          // json-text.js imports nothing: the one writer of terminal-safe JSON, --batch's too.
          const ok =
            target.startsWith('policy/') ||
            target.startsWith('ref/') ||
            target === 'errors.js' ||
            target === 'json-text.js';
          if (!ok) bad.push(`${f.path} imports ${spec} (outside the pure modules)`);
        }
      }
      if (/\bprocess\s*\.|\bprocess\s*\[|globalThis\.process/.test(f.code))
        bad.push(`${f.path} uses process`);
      if (/\brequire\s*\(/.test(f.code)) bad.push(`${f.path} uses require`);
    }
    expect(bad).toEqual([]);
  });

  it('src/oci is pure and at the bottom: no IO, no process, nothing of src but itself, errors and the one valibot face', () => {
    // The OCI types and manifest parsing sit below api/ and image/: the registry client and every
    // local back end read manifests through them. api/answer.ts imports only valibot and errors.ts.
    const oci = files.filter((f) => f.path.startsWith('oci/'));
    expect(oci.length).toBeGreaterThan(2);
    const bad: string[] = [];
    for (const f of oci) {
      for (const spec of f.all) {
        const bare = spec.replace(/^node:/, '');
        if (IO_MODULES.includes(bare)) bad.push(`${f.path} imports ${spec}`);
        if (!spec.startsWith('.')) continue;
        const target = relative(SRC, resolve(SRC, dirname(f.path), spec))
          .split('\\')
          .join('/');
        if (!(target.startsWith('oci/') || target === 'errors.js' || target === 'api/answer.js'))
          bad.push(`${f.path} imports ${spec} (above src/oci)`);
      }
      if (/\bprocess\s*\.|\bprocess\s*\[|globalThis\.process/.test(f.code))
        bad.push(`${f.path} uses process`);
    }
    expect(bad).toEqual([]);
    const answer = files.find((f) => f.path === 'api/answer.ts');
    expect(answer?.all.filter((s) => s.startsWith('.'))).toEqual(['../errors.js']);
    // And the rule bites: the registry client and a local back end read manifests through it.
    expect(files.find((f) => f.path === 'api/registry/client.ts')?.runtime).toContain(
      '../../oci/manifest.js',
    );
    expect(files.find((f) => f.path === 'image/oci-store.ts')?.runtime).toContain('../oci/manifest.js');
  });

  it('commands never touch process, console or undici directly', () => {
    const bad: string[] = [];
    for (const f of files.filter((f) => f.path.startsWith('commands/'))) {
      if (/\bprocess\s*\./.test(f.code)) bad.push(`${f.path} uses process`);
      if (/\bconsole\s*\./.test(f.code)) bad.push(`${f.path} uses console`);
      for (const spec of f.runtime) if (pkg(spec) === 'undici') bad.push(`${f.path} imports ${spec}`);
    }
    expect(bad).toEqual([]);
  });

  it('no console anywhere in src, and process only in cli.ts, context.ts and the lock', () => {
    // The lock writes its own pid into the lock file and asks whether another pid still lives
    // (stale-lock recovery): that is process state by nature, and it reads nothing else of it.
    const mayUseProcess = new Set(['cli.ts', 'context.ts', 'files/lock.ts']);
    const bad: string[] = [];
    for (const f of files) {
      if (/\bconsole\s*\./.test(f.code)) bad.push(`${f.path} uses console`);
      if (f.path === 'files/lock.ts' && /\bprocess\s*\.(?!\s*(pid|kill)\b)/.test(f.code)) {
        bad.push(`${f.path} uses process beyond pid and kill`);
      }
      if (!mayUseProcess.has(f.path) && /\bprocess\s*\.(?!\s*exitCode)/.test(f.code)) {
        bad.push(`${f.path} uses process`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('commands reach an image place only through the store interface (places, transfer), never a back end', () => {
    // What commands may use of src/image: the door to the places, the one transfer, the platform
    // selection, shared types, the registry-only delete plan, and the state stores they build.
    const allowed = [
      'image/places.js',
      'image/transfer.js',
      'image/select.js',
      'image/store.js',
      'image/platform.js',
      'image/types.js',
      'image/delete.js',
      // The state stores shared.ts builds, each beside the back end that uses it (no back end).
      'image/registry/upload-state.js',
      'image/registry/known-blobs.js',
      'image/engine/compressed-layers.js',
      'image/all-tags.js',
      'image/image-config.js',
      // Referrers and attach go through the same store interface (source.referrers, putReferrer).
      'image/referrer-copy.js',
      'image/attach.js',
      // Tag filters and sync plans are pure or go through places and transfer.
      'image/tag-filter.js',
      'image/sync.js',
      'image/sync-file.js',
    ];
    const bad: string[] = [];
    for (const f of files.filter((f) => f.path.startsWith('commands/'))) {
      for (const spec of f.runtime.filter((s) => s.startsWith('.'))) {
        const target = relative(SRC, resolve(SRC, dirname(f.path), spec))
          .split('\\')
          .join('/');
        if (target.startsWith('image/') && !allowed.includes(target)) bad.push(`${f.path} imports ${spec}`);
        // The registry client is built by the context (ctx.registry()), not by a command.
        if (target.startsWith('api/registry/client')) bad.push(`${f.path} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
    // And the rule bites: an image command does use the door.
    expect(files.find((f) => f.path === 'commands/image/shared.ts')?.runtime).toContain(
      '../../image/places.js',
    );
  });

  it('src/policy is entered through policy/index.ts alone, for runtime and type imports alike', () => {
    // The engine's internals (tables, indexes, scratch) stay free to move; its surface is index.ts.
    const bad: string[] = [];
    for (const f of files.filter((f) => !f.path.startsWith('policy/'))) {
      for (const spec of f.all.filter((s) => s.startsWith('.'))) {
        const target = relative(SRC, resolve(SRC, dirname(f.path), spec))
          .split('\\')
          .join('/');
        if (target.startsWith('policy/') && target !== 'policy/index.js')
          bad.push(`${f.path} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
    // And the rule bites: eval enters through the index, and governance's types do too.
    expect(files.find((f) => f.path === 'commands/policy/eval.ts')?.runtime).toContain(
      '../../policy/index.js',
    );
    expect(files.find((f) => f.path === 'api/governance.ts')?.all).toContain('../policy/index.js');
  });

  it('src/policy has no import loop, type imports included (shared types sit at the bottom, in types.ts)', () => {
    const edges = importGraph((f) => f.startsWith('policy/'), 'all');
    expect(edges.size).toBeGreaterThan(20);
    expect(loopsOf(edges)).toEqual([]);
  });

  it('src has no import loop between any of its files (runtime imports, dynamic ones included)', () => {
    const edges = importGraph(() => true, 'runtime');
    expect(edges.size).toBeGreaterThan(150);
    expect(loopsOf(edges)).toEqual([]);
  });

  it('src has no import loop through type imports either', () => {
    expect(loopsOf(importGraph(() => true, 'all'))).toEqual([]);
  });

  it('the loop finder finds a loop', () => {
    const edges = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(loopsOf(edges)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it('src never imports test code', () => {
    const bad = files.flatMap((f) =>
      f.runtime
        .filter((s) => s.includes('/test/') || s.startsWith('../test'))
        .map((s) => `${f.path} imports ${s}`),
    );
    expect(bad).toEqual([]);
  });
});
