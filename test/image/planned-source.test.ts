// PlannedSource: what the sync plan read is answered again from memory, within its bound; a read
// that failed or a blob that does not match its digest is not kept.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { PlannedSource } from '../../src/image/planned-source.js';
import type { ImageSource, StoredManifest } from '../../src/image/store.js';
import { parseManifest } from '../../src/oci/manifest.js';
import type { Descriptor } from '../../src/oci/media-types.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const INDEX = 'application/vnd.oci.image.index.v1+json';
const blobDesc = (b: Buffer): Descriptor => ({
  mediaType: 'application/octet-stream',
  digest: sha(b),
  size: b.length,
});

function fakeSource(blobs: Map<string, Buffer>, children: StoredManifest[]) {
  const calls = { manifests: [] as string[], blobs: [] as string[] };
  const indexBytes = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: INDEX,
      manifests: children.map((c) => ({ mediaType: c.mediaType, digest: c.digest, size: c.bytes.length })),
    }),
  );
  const top: StoredManifest = {
    bytes: indexBytes,
    digest: sha(indexBytes),
    mediaType: INDEX,
    parsed: parseManifest(indexBytes, INDEX, 'test'),
  };
  const source: ImageSource = {
    name: 'fake',
    rereadable: false,
    resolve: async () => ({ mediaType: INDEX, digest: top.digest, size: indexBytes.length }),
    getManifest: async (d) => {
      calls.manifests.push(d.digest);
      if (d.digest === top.digest) return top;
      const c = children.find((x) => x.digest === d.digest);
      if (!c) throw new Error(`no manifest ${d.digest}`);
      return c;
    },
    openBlob: async (d, start = 0) => {
      calls.blobs.push(d.digest);
      const b = blobs.get(d.digest);
      if (!b) throw new Error('missing');
      return { body: Readable.from([b.subarray(start)]), start };
    },
    close: async () => {},
  };
  return { source, calls, top };
}

function image(n: number): StoredManifest {
  const mt = 'application/vnd.oci.image.manifest.v1+json';
  const cfg = {
    mediaType: 'application/vnd.oci.image.config.v1+json',
    digest: sha(Buffer.from(String(n))),
    size: 1,
  };
  const bytes = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: mt, config: cfg, layers: [] }));
  return { bytes, digest: sha(bytes), mediaType: mt, parsed: parseManifest(bytes, mt, 'test') };
}

const readAll = async (body: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

it('children read at once and small blobs read whole are answered again from memory', async () => {
  const children = [image(1), image(2), image(3)];
  const config = Buffer.from('{"architecture":"amd64","os":"linux"}');
  const { source, calls } = fakeSource(new Map([[sha(config), config]]), children);
  const planned = new PlannedSource(source, 1024 * 1024);
  await planned.readChildren();
  for (const c of children)
    expect(
      (await planned.getManifest({ mediaType: c.mediaType, digest: c.digest, size: c.bytes.length })).digest,
    ).toBe(c.digest);
  expect(calls.manifests.filter((d) => children.some((c) => c.digest === d))).toHaveLength(3);
  const d = blobDesc(config);
  expect(await readAll((await planned.openBlob(d, 0)).body)).toEqual(config);
  expect(await readAll((await planned.openBlob(d)).body)).toEqual(config);
  expect(await readAll((await planned.openBlob(d, 5)).body)).toEqual(config.subarray(5));
  expect(calls.blobs).toHaveLength(1);
  expect(planned.kept).toBe(children.reduce((n, c) => n + c.bytes.length, 0) + config.length);
});

it('past its bound nothing more is kept: reads go to the source', async () => {
  const children = [image(1), image(2)];
  const { source, calls } = fakeSource(new Map(), children);
  const planned = new PlannedSource(source, children[0]!.bytes.length);
  const descs = children.map((c) => ({ mediaType: c.mediaType, digest: c.digest, size: c.bytes.length }));
  for (let i = 0; i < 2; i++) for (const d of descs) await planned.getManifest(d);
  expect(calls.manifests).toEqual([descs[0]!.digest, descs[1]!.digest, descs[1]!.digest]);
  expect(planned.kept).toBeLessThanOrEqual(children[0]!.bytes.length);
});

it('a blob that does not match its digest is handed on, not kept; a failed manifest read is not kept', async () => {
  const right = Buffer.from('{"a":1}');
  const wrong = Buffer.from('{"a":2}');
  const { source, calls } = fakeSource(new Map([[sha(right), wrong]]), []);
  const planned = new PlannedSource(source, 1024);
  const d = blobDesc(right);
  expect(await readAll((await planned.openBlob(d, 0)).body)).toEqual(wrong);
  await planned.openBlob(d, 0);
  expect(calls.blobs).toHaveLength(2);
  expect(planned.kept).toBe(0);
  const absent = { mediaType: 'x', digest: sha(Buffer.from('none')), size: 10 };
  await expect(planned.getManifest(absent)).rejects.toThrow(/no manifest/);
  await expect(planned.getManifest(absent)).rejects.toThrow(/no manifest/);
  expect(calls.manifests).toEqual([absent.digest, absent.digest]);
  expect(planned.kept).toBe(0);

  // A blob read that fails (missing at the source) counts for nothing either.
  await expect(planned.openBlob(blobDesc(Buffer.from('gone')), 0)).rejects.toThrow(/missing/);
  expect(planned.kept).toBe(0);
});
