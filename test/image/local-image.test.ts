// Local images: OCI layouts (tags, verified blobs, atomic index.json) and docker archives — the
// legacy `docker save` layout (digests computed by streaming), and the OCI-in-tar one hubctl writes.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IntegrityError, NotFoundError, UsageError } from '../../src/errors.js';
import { readDockerArchive, writeDockerArchive } from '../../src/image/docker-archive.js';
import { openLocalImage } from '../../src/image/local-image.js';
import { OciLayout } from '../../src/image/oci-layout.js';
import { makeOciImage } from '../support/oci-images.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'hubctl-local-'));
const sha = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

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
    expect(missing.hint).toBe('Tags in this layout: a, b.');
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

    const img = await readDockerArchive(file);
    const manifest = JSON.parse(img.top.bytes.toString());
    expect(img.top.mediaType).toBe('application/vnd.docker.distribution.manifest.v2+json');
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
    expect(img.top.digest).toBe(sha(img.top.bytes));
    const streamed = Buffer.concat(await (await img.blobs.openBlob(sha(zipped))).toArray());
    expect(streamed.equals(zipped)).toBe(true);
    await expect(readDockerArchive(join(dir, 'missing.tar'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('writes an archive (manifest.json + OCI layout) that reads back with the same digests', async () => {
    const dir = tmp();
    const made = await makeOciImage(join(dir, 'l'), { layers: 2, layerSize: 5000 });
    const layout = await OciLayout.open(made.dir);
    const manifest = JSON.parse((await layout.readBlob(made.top.digest)).toString());
    const file = join(dir, 'out.tar');
    await writeDockerArchive(file, layout, made.top, manifest, 'localhost:5000/a:1');
    const listed = execFileSync('tar', ['-tf', file]).toString().trim().split('\n');
    expect(listed).toContain('manifest.json');
    expect(listed).toContain('index.json');
    const dockerManifest = JSON.parse(execFileSync('tar', ['-xOf', file, 'manifest.json']).toString());
    expect(dockerManifest[0].RepoTags).toEqual(['localhost:5000/a:1']);
    expect(dockerManifest[0].Layers).toEqual(
      made.images[0]!.layers.map((l) => `blobs/sha256/${l.digest.slice(7)}`),
    );

    const back = await openLocalImage({ transport: 'docker-archive', path: file });
    expect(back.top.digest).toBe(made.top.digest);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });
});
