// Every wait on the engine ends (issue 20, items 11 and 12): an export that stalls, drips a byte
// at a time or sends entries for ever is given up with one sentence (exit 7), and a /_ping that
// never answers is given up after HUBCTL_HTTP_TIMEOUT, not 30 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { padding, tarHeader } from '../../../src/image/tar.js';
import {
  type EngineEmulator,
  type EngineEmulatorOptions,
  SAMPLE_IMAGE,
  startEngineEmulator,
} from '../../support/engine-emulator.js';
import { runCli } from '../../support/run-cli.js';

describe('engine deadlines', () => {
  let e: EngineEmulator | undefined;
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'hubctl-engine-deadline-'));
  });
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  async function copyFrom(options: EngineEmulatorOptions, timeout = '1') {
    e = await startEngineEmulator(options);
    const started = Date.now();
    const r = await runCli(
      ['--quiet', 'image', 'copy', 'docker-daemon:app:1', `oci:${join(tmp, `out-${started}`)}:1`],
      {
        env: { DOCKER_HOST: e.host, HUBCTL_HTTP_TIMEOUT: timeout },
      },
    );
    return { ...r, ms: Date.now() - started };
  }

  for (const fault of ['stall', 'drip'] as const) {
    it(`an export that ${fault === 'stall' ? 'stalls after 512 bytes' : 'drips a byte at a time'} is given up after the timeout`, async () => {
      const r = await copyFrom({ exportFault: fault });
      expect(r.code).toBe(7);
      expect(r.stderr).toMatch(
        /^hubctl: exporting app:1 from the engine at \S+: less than 64 KiB arrived in 1 s \(the export stalled\)\n$/,
      );
      expect(r.ms).toBeLessThan(8000);
    });
  }

  it('an export of endless entries stops at the entry cap, in bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const r = await copyFrom({ exportFault: 'endless' }, '5');
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^hubctl: exporting app:1 from the engine: unexpected answer from \S+: the archive holds more than 10000 entries\n$/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(r.ms).toBeLessThan(15_000);
  });

  it('a gzip bomb as the config is cut at 16 MiB, in bounded memory', async () => {
    const bomb = gzipSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 });
    const manifest = Buffer.from(JSON.stringify([{ Config: 'c.json', RepoTags: ['app:1'], Layers: [] }]));
    const entry = (name: string, data: Buffer) =>
      Buffer.concat([tarHeader(name, data.length), data, Buffer.alloc(padding(data.length))]);
    const archive = Buffer.concat([
      entry('c.json', bomb),
      entry('manifest.json', manifest),
      Buffer.alloc(1024),
    ]);
    const before = process.memoryUsage().rss;
    const r = await copyFrom({ images: [{ ...SAMPLE_IMAGE, archive }] }, '5');
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^hubctl: exporting app:1 from the engine: unexpected answer from \S+: the image config is larger than 16 MiB\n$/,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
  });

  it('a /_ping that never answers is given up after HUBCTL_HTTP_TIMEOUT', async () => {
    e = await startEngineEmulator({ pingHangs: true });
    const started = Date.now();
    const r = await runCli(['engine', 'version'], { env: { DOCKER_HOST: e.host, HUBCTL_HTTP_TIMEOUT: '1' } });
    const ms = Date.now() - started;
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toMatch(/^hubctl: /);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(5000);
  });
});
