// `image copy SRC DST` has a commander-free path (src/commands/image/fast-copy.ts), for a copy's
// fixed cost. It must answer exactly as commander's reading of the same argv does (stdout, stderr,
// exit code) for every argv it takes, and hand every other argv to commander: a copy option, help,
// a word too many. Both readings run here side by side, on local places and between registries.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOptions, readCopyArgv } from '../../src/commands/image/fast-copy.js';
import { UsageError } from '../../src/errors.js';
import { type ImageWorld, startImageWorld } from '../image/helpers.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { runCli } from '../support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'hubctl-fast-copy-'));
const copy = ['image', 'copy'];

/** Argv the fast path must leave to commander. */
const LEFT: string[][] = [
  [...copy, '--help'],
  [...copy, '-h'],
  [...copy, 'oci:a:1'],
  [...copy, 'oci:a:1', 'oci:b:1', 'oci:c:1'],
  [...copy, '--all-tags', 'localhost:5000/a', 'localhost:5000/b'],
  [...copy, '--concurrency', '2', 'oci:a:1', 'oci:b:1'],
  [...copy, 'oci:a:1', 'oci:b:1', '--platform', 'linux/arm64'],
  [...copy, 'oci:a:1', 'oci:b:1', '--all-platforms'],
  [...copy, 'oci:a:1', 'oci:b:1', '--keep-digests'],
  [...copy, 'oci:a:1', 'oci:b:1', '--referrers'],
  [...copy, '--', 'oci:a:1', 'oci:b:1'],
  [...copy, '-qj', 'oci:a:1', 'oci:b:1'],
  ['image', '--json', 'copy', 'oci:a:1', 'oci:b:1'],
  ['--org', 'image', 'image', 'copy', 'oci:a:1', 'oci:b:1'],
  ['help', 'image', 'copy'],
  ['image', 'inspect', 'oci:a:1'],
];

/** Argv it takes and answers without a registry: local places, and mistakes in the places. */
const TAKEN_LOCAL: string[][] = [
  [...copy, `oci:${join(dir, 'missing')}:1`, `oci:${join(dir, 'out')}:1`],
  ['--json', ...copy, `oci:${join(dir, 'missing')}:1`, `oci:${join(dir, 'out')}:1`],
  [...copy, 'a b', 'oci:x:1'],
  [...copy, 'oci:a:1', 'a b', '--json'],
  [...copy, 'oci:', 'oci:x:1', '--no-color'],
  ['--quiet', ...copy, 'Upper/Case:1', 'oci:x:1'],
  [...copy, `oci:${join(dir, 'missing')}:1`, 'oci:x:1', '--profile', '../etc'],
];

function takes(argv: string[]): boolean {
  try {
    return readCopyArgv(argv) !== undefined;
  } catch (err) {
    return err instanceof UsageError;
  }
}

async function both(argv: string[], env: Record<string, string> = {}) {
  const options = { env: { HOME: dir, HUBCTL_CONFIG_DIR: join(dir, 'config'), ...env } };
  const fast = await runCli(argv, options);
  const commander = await runCli(argv, { ...options, commanderOnly: true });
  return { fast, commander };
}

describe('image copy without commander', () => {
  it.each(LEFT)('leaves %j to commander', async (...argv) => {
    expect(readCopyArgv(argv)).toBeUndefined();
    const { fast, commander } = await both(argv);
    expect(fast).toEqual(commander);
  });

  it.each(TAKEN_LOCAL)('takes %j and answers as commander does', async (...argv) => {
    expect(takes(argv)).toBe(true);
    const { fast, commander } = await both(argv);
    expect(fast).toEqual(commander);
    expect(fast.code).not.toBe(0);
  });

  it("reads global options on both sides of the verb, and copy's defaults as commander hands them", () => {
    expect(readCopyArgv(['--json', ...copy, 'oci:a:1', 'oci:b:1', '--plain-http', 'h:5000'])).toEqual({
      words: ['oci:a:1', 'oci:b:1'],
      options: { json: true, plainHttp: ['h:5000'] },
    });
    expect(copyOptions('oci:a:1', 'oci:b:1')).toMatchObject({
      allTags: false,
      allPlatforms: false,
      concurrency: 4,
      concurrencyDefault: true,
      keepDigests: false,
      referrers: false,
    });
  });

  it('is the path the built command takes: commander is never loaded', () => {
    const trace = join(mkdtempSync(join(tmpdir(), 'hubctl-trace-')), 'modules.txt');
    const bin = new URL('../../bin/hubctl.js', import.meta.url).pathname;
    const hook = new URL('../../bench/trace-modules.mjs', import.meta.url).pathname;
    const r = spawnSync(
      process.execPath,
      ['--import', hook, bin, ...copy, `oci:${join(dir, 'missing')}:1`, `oci:${join(dir, 'out')}:1`],
      { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: dir, HUBCTL_TRACE_FILE: trace } },
    );
    expect(r.status).toBe(5);
    expect(r.stderr).toContain('is not an OCI image layout');
    const loaded = readFileSync(trace, 'utf8');
    expect(loaded).toContain('/dist/chunks/fast-copy-');
    expect(loaded).not.toMatch(/\/dist\/chunks\/program-/);
    expect(loaded).not.toMatch(/node_modules\/commander/);
  });
});

describeWithRegistry('image copy without commander, between registries', () => {
  let w: ImageWorld;
  let src: string;
  let n = 0;

  beforeAll(async () => {
    w = await startImageWorld();
    const image = await makeOciImage(join(w.tmp, 'img'), { tag: 'v', layers: 2, layerSize: 4096 });
    src = `${w.registry.host}/src/app:v`;
    expect((await w.run(['image', 'push', `oci:${image.dir}:v`, src])).code).toBe(0);
  });
  afterAll(async () => {
    await w?.stop();
  });

  it.each([
    [[] as string[], []],
    [['--json'], []],
    [[], ['--quiet']],
    [['--plain-http', '127.0.0.1:1'], ['--json']],
  ])('copies as commander does, with %j before and %j after', async (before, after) => {
    // Each reading into a repository of its own, in a state directory of its own: nothing mounted.
    const dst = (path: string) => `${w.registry.host}/dst/${path}-${++n}:1`;
    const run = (commanderOnly: boolean) => {
      const to = dst(commanderOnly ? 'commander' : 'fast');
      const argv = [...before, ...copy, src, to, ...after];
      if (!commanderOnly) expect(takes(argv)).toBe(true);
      const env = w.withCredentialsFor([w.registry.host]);
      return runCli(argv, { env, commanderOnly }).then((r) => ({ ...r, to }));
    };
    const fast = await run(false);
    const commander = await run(true);
    expect(fast.code, fast.stderr).toBe(0);
    const same = (r: { stdout: string; stderr: string; code: number; to: string }) => ({
      code: r.code,
      stdout: r.stdout.replaceAll(r.to.replace(/:1$/, ''), 'DST'),
      // A line per blob as each is done: in the order the blobs finish, which varies.
      stderr: r.stderr.replaceAll(r.to.replace(/:1$/, ''), 'DST').split('\n').sort(),
    });
    expect(same(fast)).toEqual(same(commander));
  });
});
