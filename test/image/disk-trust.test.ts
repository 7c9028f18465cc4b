// Files on disk that are not what they should be (issue 20, items 8, 10, 11 and 16): a partial
// file that is a symlink or a hard link is never written through; a read-only blob folder, a file
// where a folder goes, an index.json or a blob that is a folder each get one sentence naming the
// path and the problem; a local input that is a FIFO or a device is refused at once; local
// corruption (a truncated blob or archive) exits 1 or 2, never 7 (a network code).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundledBin, bundleBin } from '../support/bundled-bin.js';
import { type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { type RunResult, runCli } from '../support/run-cli.js';

const MiB = 1024 * 1024;

/** One `hubctl:` sentence on stderr (a hint line may follow), never a stack or "unexpected". */
function oneSentence(r: RunResult): string {
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(lines[0]).toMatch(/^hubctl: /);
  expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
  return lines[0]!;
}

describe('local files that are not what they should be', () => {
  let tmp: string;
  let src: MadeLayout;
  let n = 0;
  const fresh = (name: string) => join(tmp, `${name}-${++n}`);
  /** An empty destination layout (marker and blob folder), as a pull leaves it. */
  const emptyLayout = (dir: string) => {
    mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
    writeFileSync(join(dir, 'oci-layout'), '{"imageLayoutVersion":"1.0.0"}');
    return join(dir, 'blobs', 'sha256');
  };
  const layerOf = (l: MadeLayout) => l.images[0]!.layers[0]!;
  const copy = (from: string, to: string) => runCli(['--quiet', 'image', 'copy', from, to], {});

  beforeAll(async () => {
    tmp = join(tmpdir(), `hubctl-disk-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    src = await makeOciImage(join(tmp, 'src'), { layers: 1, layerSize: 2 * MiB });
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('never writes through a partial file that is a symlink (item 8)', async () => {
    const victim = join(tmp, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const dest = fresh('dest');
    const blobs = emptyLayout(dest);
    symlinkSync(victim, join(blobs, `.${layerOf(src).digest.slice(7)}.partial`));
    const r = await copy(`oci:${src.dir}`, `oci:${dest}:1`);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toMatch(/the partial file .*\.partial is a symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('never appends to a partial file that is a hard link to another file (item 8)', async () => {
    const victim = join(tmp, 'victim-hard.txt');
    writeFileSync(victim, 'precious\n');
    const dest = fresh('dest');
    const blobs = emptyLayout(dest);
    linkSync(victim, join(blobs, `.${layerOf(src).digest.slice(7)}.partial`));
    const r = await copy(`oci:${src.dir}`, `oci:${dest}:1`);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toMatch(/is a file with other hard links/);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });

  it('a regular file where blobs/sha256 goes is named (item 10, exit 2)', async () => {
    const dest = fresh('dest');
    mkdirSync(join(dest, 'blobs'), { recursive: true });
    writeFileSync(join(dest, 'blobs', 'sha256'), 'not a folder');
    const r = await copy(`oci:${src.dir}`, `oci:${dest}:1`);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toBe(
      `hubctl: ${join(dest, 'blobs', 'sha256')} is a regular file, not a directory`,
    );
  });

  it('an index.json that is a directory is named (item 10, exit 2)', async () => {
    const dest = fresh('dest');
    emptyLayout(dest);
    mkdirSync(join(dest, 'index.json'));
    const r = await copy(`oci:${src.dir}`, `oci:${dest}:1`);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toContain(`${join(dest, 'index.json')} is a directory, not a regular file`);
    // The same layout as a source.
    const s = await copy(`oci:${dest}:1`, `oci:${fresh('other')}:1`);
    expect(s.code).toBe(2);
    expect(oneSentence(s)).toContain('index.json is a directory');
  });

  it('a blob that is a directory is named, in a destination and in a source (item 10, exit 2)', async () => {
    const dest = fresh('dest');
    const blobs = emptyLayout(dest);
    mkdirSync(join(blobs, layerOf(src).digest.slice(7)));
    const r = await copy(`oci:${src.dir}`, `oci:${dest}:1`);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toContain(`${join(blobs, layerOf(src).digest.slice(7))} is a directory`);

    const bad = await makeOciImage(fresh('src-dir-blob'), { layers: 1, layerSize: 4096 });
    const layerPath = join(bad.dir, 'blobs', 'sha256', layerOf(bad).digest.slice(7));
    rmSync(layerPath);
    mkdirSync(layerPath);
    const s = await copy(`oci:${bad.dir}`, `oci:${fresh('out')}:1`);
    expect(s.code).toBe(2);
    expect(oneSentence(s)).toBe(`hubctl: blob ${layerPath} is a directory, not a regular file`);
  });

  it('a truncated blob in a source layout is local corruption: exit 1, not 7 (item 16)', async () => {
    const bad = await makeOciImage(fresh('src-trunc'), { layers: 1, layerSize: 64 * 1024 });
    const layer = layerOf(bad);
    truncateSync(join(bad.dir, 'blobs', 'sha256', layer.digest.slice(7)), 1000);
    const out = fresh('out');
    const r = await copy(`oci:${bad.dir}`, `oci:${out}:1`);
    expect(r.code).toBe(1);
    expect(oneSentence(r)).toContain(
      `blob ${layer.digest} in ${bad.dir} is truncated: 1000 bytes where its descriptor says ${layer.size}`,
    );
  });

  it('a blob linked to /dev/zero or a FIFO is refused at once: exit 2, not 7 and no hang (items 11, 16)', async () => {
    for (const kind of ['zero', 'fifo'] as const) {
      const bad = await makeOciImage(fresh(`src-${kind}`), { layers: 1, layerSize: 4096 });
      const layerPath = join(bad.dir, 'blobs', 'sha256', layerOf(bad).digest.slice(7));
      rmSync(layerPath);
      if (kind === 'zero') symlinkSync('/dev/zero', layerPath);
      else execFileSync('mkfifo', [layerPath]);
      const started = Date.now();
      const r = await copy(`oci:${bad.dir}`, `oci:${fresh('out')}:1`);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.code).toBe(2);
      expect(oneSentence(r)).toBe(
        `hubctl: blob ${layerPath} is ${kind === 'zero' ? 'a character device' : 'a FIFO'}, not a regular file`,
      );
    }
  });

  it('a truncated archive exits 2 naming it; a FIFO or /dev/zero given as an archive is refused (items 11, 16)', async () => {
    const archive = join(tmp, 'good.tar');
    expect((await copy(`oci:${src.dir}`, `oci-archive:${archive}`)).code).toBe(0);
    const cut = join(tmp, 'cut.tar');
    writeFileSync(cut, readFileSync(archive).subarray(0, statSync(archive).size - 1024 * 1024));
    const r = await copy(`oci-archive:${cut}`, `oci:${fresh('out')}:1`);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toMatch(new RegExp(`^hubctl: ${cut} is truncated: an entry of \\d+ bytes`));

    const fifo = join(tmp, 'archive.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [path, kind] of [
      [fifo, 'a FIFO'],
      ['/dev/zero', 'a character device'],
    ] as const) {
      const f = await copy(`docker-archive:${path}`, `oci:${fresh('out')}:1`);
      expect(f.code).toBe(2);
      expect(oneSentence(f)).toBe(`hubctl: archive ${path} is ${kind}, not a regular file`);
    }
  });

  it('a FIFO given as a policy file is refused, not waited on (item 11)', async () => {
    const fifo = join(tmp, 'policy.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await runCli(['policy', 'eval', 'connect:tcp', 'example.com:443', '-f', fifo], {});
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toBe(`hubctl: policy file ${fifo} is a FIFO, not a regular file`);
  });

  it('leaves no partial or temporary file behind after a completed copy', async () => {
    const dest = fresh('dest');
    expect((await copy(`oci:${src.dir}`, `oci:${dest}:1`)).code).toBe(0);
    const names = [...readdirSync(dest), ...readdirSync(join(dest, 'blobs', 'sha256'))];
    expect(names.filter((x) => /partial|tmp-|lock/.test(x))).toEqual([]);
  });
});

describe('a read-only blob folder (item 10)', () => {
  let bin: BundledBin;
  let tmp: string;
  beforeAll(async () => {
    bin = await bundleBin();
    tmp = join(tmpdir(), `hubctl-ro-${process.pid}`);
    mkdirSync(tmp, { recursive: true, mode: 0o755 });
  });
  afterAll(() => {
    bin?.remove();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('is one sentence naming the file that could not be written, exit 1', async () => {
    const src = await makeOciImage(join(tmp, 'src'), { layers: 1, layerSize: 4096 });
    const dest = join(tmp, 'dest');
    const blobs = join(dest, 'blobs', 'sha256');
    mkdirSync(blobs, { recursive: true });
    writeFileSync(join(dest, 'oci-layout'), '{"imageLayoutVersion":"1.0.0"}');
    const config = join(tmp, 'config');
    mkdirSync(config);
    // Root writes anywhere: run as nobody, owning everything but the blob folder.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      for (const p of [tmp, join(tmp, 'src'), dest, join(dest, 'blobs'), config]) chownSync(p, 65534, 65534);
      execFileSync('chmod', ['-R', 'a+rX', tmp]);
    }
    chmodSync(blobs, 0o555);
    const r = spawnSync(process.execPath, [bin.file, 'image', 'copy', `oci:${src.dir}`, `oci:${dest}:1`], {
      env: { PATH: process.env.PATH, HUBCTL_CONFIG_DIR: config, HOME: tmp },
      encoding: 'utf8',
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^hubctl: cannot (write|open) ${blobs}/\\S+: permission denied$`));
  });
});
