// What a network command loads (issue 27, the fixed cost of `image copy` and every registry
// command): the node modules it needs before the V8 flag undici's parser needs; node's own copy of
// undici not at all, and node's `Headers` global is left as it was for whoever reads it. Needs a
// build.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../support/run-bin.js';

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(req.url === '/v2/' ? '{}' : JSON.stringify({ name: 'team/app', tags: ['1.0', '2.0'] }));
});
let repo: string;

beforeAll(async () => {
  ensureBuilt();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  repo = `127.0.0.1:${(server.address() as AddressInfo).port}/team/app`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('a network command', () => {
  it('loads every node module it needs before it sets the V8 flag undici needs (node rejects its own code caches after it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-startup-'));
    const report = join(dir, 'after-flag.json');
    const preload = join(dir, 'report.cjs');
    writeFileSync(
      preload,
      `const v8 = require('node:v8');
      const set = v8.setFlagsFromString;
      let at;
      v8.setFlagsFromString = function (flag) {
        at ??= { flag, index: process.moduleLoadList.length };
        return set.call(this, flag);
      };
      process.on('exit', () => {
        const after = at ? process.moduleLoadList.slice(at.index).filter((m) => m.startsWith('NativeModule ')) : null;
        require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ flag: at?.flag, after }));
      });`,
    );
    const r = await runBin(['image', 'tags', repo], {
      env: { HOME: dir, XDG_CACHE_HOME: dir, HUBCTL_CONFIG_DIR: dir, NODE_OPTIONS: `--require ${preload}` },
    });
    expect(r).toMatchObject({ code: 0, stdout: '1.0\n2.0\n', stderr: '' });
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ flag: '--liftoff-only', after: [] });
  });

  it("loads undici once: node's built-in copy (behind the Headers global) stays unloaded, and the global still works", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-startup-'));
    const report = join(dir, 'modules.json');
    const preload = join(dir, 'report.cjs');
    // At exit, after the command ran: which of node's modules loaded, and what Headers then is.
    writeFileSync(
      preload,
      `process.on('exit', () => {
        const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule '));
        const undiciLoadedBefore = loaded.includes('NativeModule internal/deps/undici/undici');
        const d = Object.getOwnPropertyDescriptor(globalThis, 'Headers');
        const lazy = typeof d.get === 'function';
        const works = new globalThis.Headers({ a: '1' }).get('a');
        require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ undiciLoadedBefore, lazy, works }));
      });`,
    );
    const r = await runBin(['image', 'tags', repo], {
      env: { HOME: dir, XDG_CACHE_HOME: dir, HUBCTL_CONFIG_DIR: dir, NODE_OPTIONS: `--require ${preload}` },
    });
    expect(r).toMatchObject({ code: 0, stdout: '1.0\n2.0\n', stderr: '' });
    // Before the preload's own read of Headers: still node's lazy getter, never run; then it works.
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({
      undiciLoadedBefore: false,
      lazy: true,
      works: '1',
    });
  });

  it("loads only the parts of valibot hubctl's schemas use (the whole library is ~190 KB to read and compile)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-startup-'));
    const report = join(dir, 'loaded.json');
    const preload = join(dir, 'report.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => {
        require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache)));
      });`,
    );
    const r = await runBin(['image', 'tags', repo], {
      env: { HOME: dir, XDG_CACHE_HOME: dir, HUBCTL_CONFIG_DIR: dir, NODE_OPTIONS: `--require ${preload}` },
    });
    expect(r).toMatchObject({ code: 0, stdout: '1.0\n2.0\n', stderr: '' });
    const loaded = (JSON.parse(readFileSync(report, 'utf8')) as string[]).filter((f) => f.includes('/dist/'));
    const code = loaded.map((f) => readFileSync(f, 'utf8')).join('\n');
    // The schemas' own: an answer is parsed, so these are loaded...
    expect(code).toMatch(/function looseObject\(/);
    expect(code).toMatch(/function safeParse\(/);
    // ...and none of the validators, async schemas and actions that no schema of hubctl uses.
    for (const unused of ['email', 'ipv6', 'objectAsync', 'variantAsync', 'creditCard', 'isoDateTime'])
      expect(code, unused).not.toMatch(new RegExp(`function ${unused}\\(`));
  });

  it('reads a handful of files of dist, not one per chunk: the packs of scripts/build.mjs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-startup-'));
    const report = join(dir, 'read.json');
    const preload = join(dir, 'report.cjs');
    // Every file of dist/ read as a module's source (the code caches are read from XDG_CACHE_HOME).
    writeFileSync(
      preload,
      `const fs = require('node:fs');
      const read = fs.readFileSync;
      const seen = [];
      fs.readFileSync = function (path, ...rest) {
        if (typeof path === 'string' && path.includes('/dist/') && path.endsWith('.js')) seen.push(path.slice(path.lastIndexOf('/dist/') + 6));
        return read.call(this, path, ...rest);
      };
      process.on('exit', () => fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify(seen)));`,
    );
    const r = await runBin(['image', 'tags', repo], {
      env: { HOME: dir, XDG_CACHE_HOME: dir, HUBCTL_CONFIG_DIR: dir, NODE_OPTIONS: `--require ${preload}` },
    });
    expect(r).toMatchObject({ code: 0, stdout: '1.0\n2.0\n', stderr: '' });
    const read = JSON.parse(readFileSync(report, 'utf8')) as string[];
    // The entry, the code cache's hook, the command tree, the image group with the context and the
    // registry client, and the HTTP layer with undici: each read once.
    expect(read.map((f) => f.replace(/-[A-Z0-9]{8}\.js$/, ''))).toEqual([
      'cli.js',
      'chunks/compile-cache',
      'chunks/program',
      'chunks/image',
      'chunks/client',
    ]);
  });
});
