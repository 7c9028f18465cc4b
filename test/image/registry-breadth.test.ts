// Registry breadth against the real registry: catalog (paginated, capped), copy --all-tags (blobs
// sent once and mounted, a report), digest --platform, and inspect of an artifact (artifactType,
// subject, annotations).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const sha = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describeWithRegistry('registry breadth: catalog, copy --all-tags, digest --platform, artifacts', () => {
  let w: ImageWorld;
  let R: string;

  beforeAll(async () => {
    w = await startImageWorld();
    R = w.registry.host;
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('copy --all-tags copies every tag once per blob, mounting within the registry; catalog lists both', async () => {
    // Three tags sharing a base layer: 2 images x (config + 2 layers), layer 0 common.
    const a = await makeOciImage(join(w.tmp, 'tags'), { tag: 'a', layers: 2, layerSize: 8 * 1024 });
    const b = await makeOciImage(join(w.tmp, 'tags'), { tag: 'b', layers: 1, layerSize: 8 * 1024 });
    for (const [img, tag] of [
      [a, 'a'],
      [b, 'b'],
      [a, 'c'],
    ] as const)
      expect(
        (await w.run(['image', 'push', `oci:${img.dir}:${img.tag}`, `${R}/breadth/src:${tag}`])).code,
      ).toBe(0);

    const r = await w.run(['--json', 'image', 'copy', '--all-tags', `${R}/breadth/src`, `${R}/breadth/dst`]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      source: `${R}/breadth/src`,
      destination: `${R}/breadth/dst`,
      copied: 3,
      failed: 0,
    });
    expect(report.tags.map((t: { tag: string }) => t.tag).sort()).toEqual(['a', 'b', 'c']);
    // Every distinct blob is mounted once; every other time it is skipped, never uploaded.
    const total = (action: string) =>
      report.tags.reduce((n: number, t: { blobs: Record<string, number> }) => n + (t.blobs[action] ?? 0), 0);
    const distinct = new Set(
      [...a.images, ...b.images].flatMap((i) => [i.config.digest, ...i.layers.map((l) => l.digest)]),
    );
    expect(total('mounted')).toBe(distinct.size);
    expect(total('pushed')).toBe(0);
    for (const t of ['a', 'b', 'c']) {
      const d = await w.run(['image', 'digest', `${R}/breadth/dst:${t}`]);
      expect(d.stdout.trim()).toBe(report.tags.find((x: { tag: string }) => x.tag === t).digest);
    }
    const text = await w.run(['image', 'copy', '--all-tags', `${R}/breadth/src`, `${R}/breadth/dst2`]);
    expect(text.stderr).toMatch(/Copied 3 of 3 tags from .*breadth\/src to .*breadth\/dst2\./);
    expect((await w.run(['image', 'copy', '--all-tags', `${R}/breadth/src:a`, `${R}/x`])).code).toBe(2);

    const cat = await w.run(['--json', 'image', 'catalog', R]);
    expect(cat.code, cat.stderr).toBe(0);
    expect(JSON.parse(cat.stdout)).toEqual(expect.arrayContaining(['breadth/src', 'breadth/dst']));
    const capped = await w.run(['image', 'catalog', R, '--limit', '1']);
    expect(capped.stdout.trim().split('\n')).toHaveLength(1);
    expect(capped.stderr).toMatch(/Stopped at 1 repositories/);
    // --json: an array still, and the limit said on stderr.
    const cappedJson = await w.run(['--json', 'image', 'catalog', R, '--limit', '1']);
    expect(JSON.parse(cappedJson.stdout)).toHaveLength(1);
    expect(cappedJson.stderr).toMatch(/Stopped at 1 repositories/);
    expect((await w.run(['image', 'catalog', R, '--limit', '0'])).code).toBe(2);
  });

  it("digest --platform prints the digest of that platform's manifest", async () => {
    const img = await makeOciImage(join(w.tmp, 'multi'), {
      platforms: ['linux/amd64', 'linux/arm64'],
      layers: 1,
      layerSize: 1024,
    });
    expect((await w.run(['image', 'push', `oci:${img.dir}`, `${R}/breadth/multi:1`])).code).toBe(0);
    const arm = await w.run([
      'image',
      'digest',
      `docker://${R}/breadth/multi:1`,
      '--platform',
      'linux/arm64',
    ]);
    expect(arm.stdout.trim()).toBe(img.images[1]!.manifest.digest);
    expect((await w.run(['image', 'digest', `${R}/breadth/multi:1`])).stdout.trim()).toBe(img.top.digest);
    const none = await w.run(['image', 'digest', `${R}/breadth/multi:1`, '--platform', 'linux/s390x']);
    expect(none.code).toBe(5);
    expect(
      (await w.run(['image', 'digest', `oci:${img.dir}`, '--platform', 'linux/amd64'])).stdout.trim(),
    ).toBe(img.images[0]!.manifest.digest);
  });

  it('inspect shows artifactType, subject and annotations', async () => {
    const img = await makeOciImage(join(w.tmp, 'subject'), { layers: 1, layerSize: 1024 });
    expect((await w.run(['image', 'push', `oci:${img.dir}`, `${R}/breadth/art:image`])).code).toBe(0);
    // A signature-like artifact whose subject is that image, in a layout of its own.
    const dir = join(w.tmp, 'artifact');
    mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
    const put = (bytes: Buffer) => {
      writeFileSync(join(dir, 'blobs', 'sha256', sha(bytes).slice(7)), bytes);
      return { digest: sha(bytes), size: bytes.length };
    };
    const empty = put(Buffer.from('{}'));
    const payload = put(Buffer.from('signature bytes'));
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        artifactType: 'application/vnd.example.signature.v1',
        config: { mediaType: 'application/vnd.oci.empty.v1+json', ...empty },
        layers: [{ mediaType: 'application/vnd.example.signature.v1+bin', ...payload }],
        subject: { mediaType: img.top.mediaType, digest: img.top.digest, size: img.top.size },
        annotations: { 'org.example.signer': 'ci' },
      }),
    );
    const m = put(manifest);
    writeFileSync(join(dir, 'oci-layout'), '{"imageLayoutVersion":"1.0.0"}');
    writeFileSync(
      join(dir, 'index.json'),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...m }],
      }),
    );
    const push = await w.run(['image', 'push', `oci:${dir}`, `${R}/breadth/art:sig`]);
    expect(push.code, push.stderr).toBe(0);
    const j = JSON.parse((await w.run(['--json', 'image', 'inspect', `${R}/breadth/art:sig`])).stdout);
    expect(j.artifactType).toBe('application/vnd.example.signature.v1');
    expect(j.subject.digest).toBe(img.top.digest);
    expect(j.annotations).toEqual({ 'org.example.signer': 'ci' });
    const text = await w.run(['image', 'inspect', `${R}/breadth/art:sig`]);
    expect(text.stdout).toContain('Artifact type\tapplication/vnd.example.signature.v1');
    expect(text.stdout).toContain(`Subject\t${img.top.digest}`);
    expect(text.stdout).toContain('Annotation org.example.signer\tci');
  });
});
