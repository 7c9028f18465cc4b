// The V8 code cache of dist's chunks (src/compile-cache.ts): written atomically, mode 0600, per
// version; a corrupt cache is ignored and rewritten, never an error. Needs a build.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditEvent, startAuditEmulator } from '../support/audit-emulator.js';
import { runBin } from '../support/run-bin.js';

const BIN = new URL('../../bin/hubctl.js', import.meta.url).pathname;
const EXAMPLE = new URL('../../examples/network.yaml', import.meta.url).pathname;

function evalWith(cache: string, host: string) {
  const r = spawnSync(process.execPath, [BIN, 'policy', 'eval', 'connect:tcp', host, '-f', EXAMPLE], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cache, XDG_CACHE_HOME: cache, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('compile cache', () => {
  it('is written on the first run, used on the next, and a corrupt one is ignored', () => {
    const cache = mkdtempSync(join(tmpdir(), 'hubctl-cache-'));
    const first = evalWith(cache, 'api.github.com:443');
    expect(first.code).toBe(0);
    const [versionDir] = readdirSync(join(cache, 'hubctl'));
    const dir = join(cache, 'hubctl', versionDir!);
    const files = readdirSync(dir);
    expect(files.some((f) => f.startsWith('fast-eval-') && f.endsWith('.js.cache'))).toBe(true);
    expect(files.every((f) => f.endsWith('.js.cache'))).toBe(true); // no temporary file left
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    expect(evalWith(cache, 'api.github.com:443')).toEqual(first);

    for (const f of files) writeFileSync(join(dir, f), 'not a code cache');
    expect(evalWith(cache, 'api.github.com:443')).toEqual(first);
    const denied = evalWith(cache, 'evil.example:443');
    expect(denied.code).toBe(3);
    expect(denied.stderr).toBe('');
    expect(statSync(join(dir, files[0]!)).size).toBeGreaterThan('not a code cache'.length);
  });

  it("is used by a network command too: its next run writes nothing (the V8 flag undici's parser needs changes V8's flag hash)", async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url === '/v2/' ? '{}' : JSON.stringify({ name: 'team/app', tags: ['1.0', '2.0'] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const repo = `127.0.0.1:${(server.address() as AddressInfo).port}/team/app`;
    const cache = mkdtempSync(join(tmpdir(), 'hubctl-cache-'));
    const tags = () => runBin(['image', 'tags', repo], { env: { HOME: cache, XDG_CACHE_HOME: cache } });
    const stamps = (dir: string) =>
      Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
    try {
      const first = await tags();
      expect(first).toMatchObject({ code: 0, stdout: '1.0\n2.0\n', stderr: '' });
      const [versionDir] = readdirSync(join(cache, 'hubctl'));
      const dir = join(cache, 'hubctl', versionDir!);
      const written = stamps(dir);
      // The packs a registry command loads (scripts/build.mjs): the command tree, the image group
      // with what a registry command imports next, and the HTTP layer with undici.
      for (const pack of ['program-', 'image-', 'client-'])
        expect(
          Object.keys(written).some((f) => f.startsWith(pack)),
          pack,
        ).toBe(true);
      // undici is bundled into a chunk of dist (scripts/build.mjs), so the cache covers it too.
      const chunks = new URL('../../dist/chunks/', import.meta.url).pathname;
      const undici = readdirSync(chunks).filter((f) =>
        readFileSync(join(chunks, f), 'utf8').includes('node_modules/undici/lib/'),
      );
      // Its own chunk, and the HTTP layer's packed one (scripts/build.mjs), which a registry
      // command loads; compiled after the flag is set (src/http/liftoff.ts), named for it.
      expect(undici).toHaveLength(2);
      expect(undici.filter((f) => `${f}--liftoff-only.cache` in written)).toHaveLength(1);
      // And an offline command in between, which compiles its chunks without the flag.
      expect(evalWith(cache, 'api.github.com:443').code).toBe(0);
      const after = stamps(dir);
      expect(await tags()).toMatchObject({ code: 0, stdout: '1.0\n2.0\n' });
      expect(stamps(dir)).toEqual(after);
      for (const [f, at] of Object.entries(written)) expect(after[f]).toBe(at);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('caches a chunk compiled before the V8 flag with every function the command ran, after the flag too', async () => {
    // The image group's pack is compiled before --liftoff-only (src/http/liftoff.ts), most of what
    // a registry command runs of it after. Its cache, taken when the flag was set, held only what
    // had run by then, and every run compiled the rest again.
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url === '/v2/' ? '{}' : JSON.stringify({ name: 'team/app', tags: ['1.0', '2.0'] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const repo = `127.0.0.1:${(server.address() as AddressInfo).port}/team/app`;
    const cache = mkdtempSync(join(tmpdir(), 'hubctl-cache-'));
    const report = join(cache, 'report.json');
    const preload = join(cache, 'report.cjs');
    // The second run: each chunk's cache as read, and as V8 would write it at exit (flags undone).
    writeFileSync(
      preload,
      `const vm = require('node:vm');
      const Script = vm.Script;
      const seen = [];
      vm.Script = function (code, options) {
        const script = new Script(code, options);
        if (options && options.cachedData) seen.push({ file: options.filename, script, read: options.cachedData.length, rejected: script.cachedDataRejected });
        return script;
      };
      process.on('exit', () => {
        const flagged = seen.filter((s) => s.file.includes('/client-'));
        require('node:v8').setFlagsFromString('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering');
        require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(seen.map((s) => ({
          chunk: s.file.slice(s.file.lastIndexOf('/') + 1, s.file.lastIndexOf('-')),
          rejected: s.rejected,
          read: s.read,
          atExit: flagged.includes(s) ? undefined : s.script.createCachedData().length,
        }))));
      });`,
    );
    const tags = (env: Record<string, string> = {}) =>
      runBin(['image', 'tags', repo], { env: { HOME: cache, XDG_CACHE_HOME: cache, ...env } });
    try {
      expect(await tags()).toMatchObject({ code: 0, stdout: '1.0\n2.0\n', stderr: '' });
      expect(await tags({ NODE_OPTIONS: `--require ${preload}` })).toMatchObject({ code: 0, stderr: '' });
      const seen = JSON.parse(readFileSync(report, 'utf8')) as {
        chunk: string;
        rejected: boolean;
        read: number;
        atExit?: number;
      }[];
      expect(seen.map((s) => [s.chunk, s.rejected])).toEqual([
        ['program', false],
        ['image', false],
        ['client', false],
      ]);
      // Compiled before the flag: what they ran after it is in the cache already (it was ~15% of
      // the image pack's cache for `image tags`, ~30% for a copy).
      for (const s of seen.filter((s) => s.atExit !== undefined))
        expect(s.read, s.chunk).toBeGreaterThanOrEqual(0.98 * s.atExit!);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('is used by `audit export` too, which sets a V8 flag of its own (the semi-space growth): its next run writes nothing', async () => {
    const anchor = Date.parse('2026-11-20T12:00:00.000Z');
    const events = Array.from({ length: 30 }, (_, i) =>
      auditEvent(i + 1, new Date(anchor - 60_000 * (i + 1)).toISOString()),
    );
    const emu = await startAuditEmulator({ events: { acme: events }, now: () => anchor, pageSizeCap: 10 });
    const cache = mkdtempSync(join(tmpdir(), 'hubctl-cache-'));
    const stamps = (dir: string) =>
      Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
    let n = 0;
    const exportOnce = () =>
      runBin(
        [
          'audit',
          'export',
          '--since',
          '2026-11-20T00:00:00Z',
          '--to',
          '2026-11-20T12:00:00Z',
          '-o',
          join(cache, `export-${++n}.ndjson`),
        ],
        {
          env: {
            HOME: cache,
            XDG_CACHE_HOME: cache,
            HUBCTL_CONFIG_DIR: join(cache, 'config'),
            HUBCTL_AUDIT_URL: emu.url,
            HUBCTL_AUDIT_TOKEN: 'hub_oat_acme-audit-0001',
            HUBCTL_ORG: 'acme',
            HUBCTL_AUDIT_MAX_RPM: '6000',
          },
        },
      );
    try {
      expect(await exportOnce()).toMatchObject({ code: 0 });
      expect(readFileSync(join(cache, 'export-1.ndjson'), 'utf8').split('\n')).toHaveLength(31);
      const [versionDir] = readdirSync(join(cache, 'hubctl'));
      const dir = join(cache, 'hubctl', versionDir!);
      const written = stamps(dir);
      expect(Object.keys(written).length).toBeGreaterThan(5);
      // Chunks compiled after the flag have caches named for it.
      expect(Object.keys(written).some((f) => f.includes('--semi-space-growth-factor=1'))).toBe(true);
      expect(await exportOnce()).toMatchObject({ code: 0 });
      expect(stamps(dir)).toEqual(written);
    } finally {
      await emu.close();
    }
  });

  it('is not used by another build, where a packed file keeps its name and length but not its code', () => {
    // scripts/build.mjs packs into the image group's file chunks that its name (esbuild's hash of
    // its own code) does not cover, and V8 checks a code cache against the source's length only: the
    // first build's cache of that file, accepted, ran the first build's packed chunks (under their
    // old names), and the second build's were read and compiled one by one, every run.
    const root = new URL('../../', import.meta.url).pathname;
    const repo = mkdtempSync(join(tmpdir(), 'hubctl-rebuild-'));
    for (const d of ['src', 'scripts', 'bin']) cpSync(join(root, d), join(repo, d), { recursive: true });
    cpSync(join(root, 'package.json'), join(repo, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(repo, 'node_modules'));
    const build = () => {
      const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const chunks = join(repo, 'dist', 'chunks');
      const image = readdirSync(chunks).find((f) => f.startsWith('image-'))!;
      return { image, size: statSync(join(chunks, image)).size };
    };
    // A corrupt configuration file: the image group's code (src/config/read.ts, packed into it)
    // says so before any request.
    const config = mkdtempSync(join(tmpdir(), 'hubctl-config-'));
    writeFileSync(join(config, 'config.json'), 'not json');
    const cache = mkdtempSync(join(tmpdir(), 'hubctl-cache-'));
    const argv = [join(repo, 'bin', 'hubctl.js'), 'image', 'tags', '127.0.0.1:1/team/app'];
    const env = { PATH: process.env.PATH, HOME: cache, XDG_CACHE_HOME: cache, HUBCTL_CONFIG_DIR: config };
    const tags = () => spawnSync(process.execPath, argv, { encoding: 'utf8', env });
    /** The chunks compiled from a file of their own, as their cache files say. */
    const compiledAlone = () =>
      readdirSync(join(cache, 'hubctl')).flatMap((d) =>
        readdirSync(join(cache, 'hubctl', d)).filter((f) => /^(context|read)-/.test(f)),
      );
    const before = build();
    expect(tags().stderr).toMatch(/^hubctl: cannot read the config file/);
    expect(tags().stderr).toMatch(/^hubctl: cannot read the config file/);
    const read = join(repo, 'src', 'config', 'read.ts');
    writeFileSync(read, readFileSync(read, 'utf8').replace('cannot read the', 'cannot load the'));
    expect(build()).toEqual(before);
    for (let run = 0; run < 2; run++) {
      const after = tags();
      expect(after.status).toBe(2);
      expect(after.stderr).toMatch(/^hubctl: cannot load the config file/);
    }
    expect(compiledAlone()).toEqual([]);
  });
});
