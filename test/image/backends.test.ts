// The local back ends: OCI layouts (tags, verified blobs, atomic index.json), docker archives (the
// legacy `docker save` layout with digests computed by streaming, the OCI-in-tar one hubctl writes,
// one image picked from several), OCI archives, and the transfer between them (conversion to OCI).
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IntegrityError, NotFoundError, UsageError } from '../../src/errors.js';
import { DockerArchiveSource } from '../../src/image/docker-archive.js';
import { OciLayout } from '../../src/image/oci-layout.js';
import { openDestination, openSource, type PlaceDeps } from '../../src/image/places.js';
import { transfer } from '../../src/image/transfer.js';
import type { TransferProgress } from '../../src/output/progress.js';
import { parsePlace } from '../../src/ref/transport.js';
import { makeOciImage } from '../support/oci-images.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'hubctl-local-'));
const sha = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const quiet: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };
const deps: PlaceDeps = {
  registry: () => Promise.reject(new Error('no registry in these tests')),
  signal: new AbortController().signal,
};
const all = { kind: 'all' } as const;

/** `hubctl image copy SRC DST` without the command: the places' back ends and the transfer. */
async function copy(src: string, dst: string, opts: { keepDigests?: boolean } = {}) {
  const from = parsePlace(src);
  const source = await openSource(from, deps);
  const destination = await openDestination(parsePlace(dst), from, deps);
  return transfer(source, destination, { platforms: all, progress: quiet, ...opts });
}

describe('OCI layouts', () => {
  it('resolves tags, and the only image without one', async () => {
    const dir = join(tmp(), 'l');
    const a = await makeOciImage(dir, { tag: 'a', layers: 1, layerSize: 1000 });
    const layout = await OciLayout.open(dir);
    expect((await layout.resolve()).digest).toBe(a.top.digest);
    const b = await makeOciImage(dir, { tag: 'b', layers: 1, layerSize: 1000 });
    expect((await layout.resolve('b')).digest).toBe(b.top.digest);
    await expect(layout.resolve()).rejects.toBeInstanceOf(UsageError);
    const missing = await layout.resolve('c').catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.hint).toBe('Tags there: a, b.');
    await expect(OciLayout.open(tmp())).rejects.toThrow(/not an OCI image layout/);
  });

  it('refuses a blob whose bytes do not match its digest, and writes index.json atomically', async () => {
    const dir = join(tmp(), 'l');
    const img = await makeOciImage(dir, { layers: 1, layerSize: 1000 });
    const layout = await OciLayout.open(dir);
    writeFileSync(layout.blobPath(img.images[0]!.config.digest), '{"tampered":true}');
    await expect(layout.readBlob(img.images[0]!.config.digest)).rejects.toBeInstanceOf(IntegrityError);
    await expect(layout.writeBlob(sha('x'), Buffer.from('y'))).rejects.toBeInstanceOf(IntegrityError);
    await layout.setTag('v2', { mediaType: img.top.mediaType, digest: img.top.digest, size: img.top.size });
    await layout.setTag('v2', { mediaType: img.top.mediaType, digest: img.top.digest, size: img.top.size });
    const index = await layout.readIndex();
    expect(index.manifests.map((d) => d.annotations?.['org.opencontainers.image.ref.name'])).toEqual([
      'latest',
      'v2',
    ]);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('docker archives', () => {
  it('reads a legacy `docker save` archive: docker v2 manifest, digests of the layer tars as stored', async () => {
    const dir = tmp();
    const src = join(dir, 'src');
    mkdirSync(join(src, 'abc'), { recursive: true });
    mkdirSync(join(src, 'def'), { recursive: true });
    const plain = randomBytes(3000);
    const zipped = gzipSync(randomBytes(2000));
    writeFileSync(join(src, 'abc', 'layer.tar'), plain);
    writeFileSync(join(src, 'def', 'layer.tar'), zipped);
    const config = JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      rootfs: { type: 'layers', diff_ids: [] },
    });
    writeFileSync(join(src, 'cfg.json'), config);
    writeFileSync(
      join(src, 'manifest.json'),
      JSON.stringify([{ Config: 'cfg.json', RepoTags: ['x:1'], Layers: ['abc/layer.tar', 'def/layer.tar'] }]),
    );
    const file = join(dir, 'legacy.tar');
    execFileSync('tar', ['-cf', file, '-C', src, 'manifest.json', 'cfg.json', 'abc', 'def']);

    const img = await DockerArchiveSource.open('x', file);
    const top = await img.getManifest(await img.resolve());
    const manifest = JSON.parse(top.bytes.toString());
    expect(top.mediaType).toBe('application/vnd.docker.distribution.manifest.v2+json');
    expect(manifest.config).toEqual({
      mediaType: 'application/vnd.docker.container.image.v1+json',
      digest: sha(config),
      size: config.length,
    });
    expect(manifest.layers).toEqual([
      { mediaType: 'application/vnd.docker.image.rootfs.diff.tar', digest: sha(plain), size: plain.length },
      {
        mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
        digest: sha(zipped),
        size: zipped.length,
      },
    ]);
    expect(top.digest).toBe(sha(top.bytes));
    const d = manifest.layers[1];
    const streamed = Buffer.concat(await (await img.openBlob(d)).body.toArray());
    expect(streamed.equals(zipped)).toBe(true);
    const tail = Buffer.concat(await (await img.openBlob(d, 100, 200)).body.toArray());
    expect(tail.equals(zipped.subarray(100, 200))).toBe(true);
    await expect(DockerArchiveSource.open('x', join(dir, 'missing.tar'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('writes an archive (manifest.json + OCI layout) that reads back with the same digests', async () => {
    const dir = tmp();
    const made = await makeOciImage(join(dir, 'l'), { layers: 2, layerSize: 5000 });
    const file = join(dir, 'out.tar');
    const result = await copy(`oci:${made.dir}`, `docker-archive:${file}:localhost:5000/a:1`);
    expect(result.digest).toBe(made.top.digest);
    expect(result.blobs.map((b) => b.action)).toEqual(['copied', 'copied', 'copied']);
    const listed = execFileSync('tar', ['-tf', file]).toString().trim().split('\n');
    expect(listed).toContain('manifest.json');
    expect(listed).toContain('index.json');
    const dockerManifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json']).toString());
    expect(dockerManifest[0].RepoTags).toEqual(['localhost:5000/a:1']);
    expect(dockerManifest[0].Layers).toEqual(
      made.images[0]!.layers.map((l) => `blobs/sha256/${l.digest.slice(7)}`),
    );
    const back = await DockerArchiveSource.open('x', file);
    expect((await back.resolve()).digest).toBe(made.top.digest);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('picks one image of a multi-image archive by name:tag or @N, and says what there is', async () => {
    const dir = tmp();
    const src = join(dir, 'src');
    const images = ['one', 'two'].map((id) => {
      mkdirSync(join(src, id), { recursive: true });
      const layer = randomBytes(1000);
      writeFileSync(join(src, id, 'layer.tar'), layer);
      const config = JSON.stringify({ architecture: 'amd64', os: 'linux', id });
      writeFileSync(join(src, `${id}.json`), config);
      return {
        layer,
        config,
        entry: { Config: `${id}.json`, RepoTags: [`app:${id}`], Layers: [`${id}/layer.tar`] },
      };
    });
    writeFileSync(join(src, 'manifest.json'), JSON.stringify(images.map((i) => i.entry)));
    const file = join(dir, 'multi.tar');
    execFileSync('tar', ['-cf', file, '-C', src, '.']);
    const config = async (ref?: string) => {
      const s = await openSource(parsePlace(`docker-archive:${file}${ref ? `:${ref}` : ''}`), deps);
      const m = await s.getManifest(await s.resolve());
      return m.parsed.kind === 'image' ? m.parsed.manifest.config.digest : '';
    };
    expect(await config('app:two')).toBe(sha(images[1]!.config));
    expect(await config('docker.io/library/app:one')).toBe(sha(images[0]!.config));
    expect(await config('@1')).toBe(sha(images[1]!.config));
    await expect(config()).rejects.toThrow(/holds 2 images: name one with docker-archive:.*:REF/);
    const missing = await config('app:three').catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.hint).toBe('Images there: app:one, app:two.');
    await expect(config('@2')).rejects.toThrow(/there is no @2/);
  });
});

describe('transfers between local places', () => {
  it('oci -> oci-archive -> oci keeps every digest of a multi-platform index, written in one pass', async () => {
    const dir = tmp();
    const made = await makeOciImage(join(dir, 'l'), {
      tag: 'v1',
      platforms: ['linux/amd64', 'linux/arm64'],
      layers: 1,
      layerSize: 3000,
    });
    const file = join(dir, 'out.tar');
    const r1 = await copy(`oci:${made.dir}:v1`, `oci-archive:${file}`);
    expect(r1.digest).toBe(made.top.digest);
    expect(readdirSync(dir).sort()).toEqual(['l', 'out.tar']);
    const listed = execFileSync('tar', ['-tf', file]).toString().trim().split('\n');
    expect(listed[0]).toBe('oci-layout');
    expect(listed.at(-1)).toBe('index.json');
    const index = JSON.parse(execFileSync('tar', ['-xOf', file, 'index.json']).toString());
    expect(index.manifests[0].annotations).toEqual({ 'org.opencontainers.image.ref.name': 'v1' });
    const r2 = await copy(`oci-archive:${file}:v1`, `oci:${join(dir, 'back')}:again`);
    expect(r2.digest).toBe(made.top.digest);
    expect((await (await OciLayout.open(join(dir, 'back'))).resolve('again')).digest).toBe(made.top.digest);
  });

  it('converts docker manifests to OCI for oci: places (digest changes, blobs kept); --keep-digests keeps them', async () => {
    const dir = tmp();
    const made = await makeOciImage(join(dir, 'l'), {
      platforms: ['linux/amd64', 'linux/arm64'],
      layers: 1,
      layerSize: 2000,
      docker: true,
    });
    const conv = await copy(`oci:${made.dir}`, `oci:${join(dir, 'c')}:x`);
    expect(conv.convertedFrom).toBe(made.top.digest);
    expect(conv.digest).not.toBe(made.top.digest);
    expect(conv.mediaType).toBe('application/vnd.oci.image.index.v1+json');
    const layout = await OciLayout.open(join(dir, 'c'));
    const index = JSON.parse((await layout.readBlob(conv.digest)).toString());
    for (const entry of index.manifests) {
      expect(entry.mediaType).toBe('application/vnd.oci.image.manifest.v1+json');
      const m = JSON.parse((await layout.readBlob(entry.digest)).toString());
      expect(m.config.mediaType).toBe('application/vnd.oci.image.config.v1+json');
      expect(m.layers[0].mediaType).toBe('application/vnd.oci.image.layer.v1.tar+gzip');
      expect(made.images.map((i) => i.config.digest)).toContain(m.config.digest);
    }
    const kept = await copy(`oci:${made.dir}`, `oci:${join(dir, 'k')}:x`, { keepDigests: true });
    expect(kept.digest).toBe(made.top.digest);
    expect(kept.convertedFrom).toBeUndefined();
  });

  it('refuses an index into a docker archive, and leaves no file behind', async () => {
    const dir = tmp();
    const made = await makeOciImage(join(dir, 'l'), {
      platforms: ['linux/amd64', 'linux/arm64'],
      layers: 1,
      layerSize: 100,
    });
    await expect(copy(`oci:${made.dir}`, `docker-archive:${join(dir, 'a.tar')}`)).rejects.toThrow(
      /holds one image: pick a platform/,
    );
    expect(readdirSync(dir)).toEqual(['l']);
  });

  it('replaces a blob of the right size but wrong bytes instead of skipping it', async () => {
    const dir = tmp();
    const made = await makeOciImage(join(dir, 'l'), { layers: 1, layerSize: 5000 });
    const dest = join(dir, 'd');
    await copy(`oci:${made.dir}`, `oci:${dest}`);
    const layer = made.images[0]!.layers[0]!;
    const path = join(dest, 'blobs', 'sha256', layer.digest.slice(7));
    writeFileSync(path, randomBytes(layer.size));
    const again = await copy(`oci:${made.dir}`, `oci:${dest}`);
    expect(again.blobs.find((b) => b.digest === layer.digest)?.action).toBe('copied');
    expect(sha(readFileSync(path))).toBe(layer.digest);
    expect(again.blobs.filter((b) => b.action === 'skipped')).toHaveLength(1);
  });
});
