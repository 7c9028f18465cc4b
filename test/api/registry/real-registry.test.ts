// All eleven registry operations of interface.md (B), one by one, against a real registry
// (distribution 2.8) with the hub emulator as token service: upload POST (and mount), PATCH,
// status GET, cancel DELETE, PUT; blob HEAD and GET (with Range); manifest PUT, GET, HEAD, DELETE.
import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { RegistryClient } from '../../../src/api/registry/client.js';
import { systemClock } from '../../../src/clock.js';
import { AuthError } from '../../../src/errors.js';
import { createHttpClient } from '../../../src/http/client.js';
import { describeWithRegistry } from '../../support/registry.js';
import { useRegistryWorld } from '../../support/registry-world.js';

const sha = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

describeWithRegistry('the eleven operations against distribution 2.8', () => {
  const world = useRegistryWorld('ops/app');
  const { repo } = world;
  const layer = randomBytes(200 * 1024);
  const config = Buffer.from(
    JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] } }),
  );

  it('chunked upload: POST, PATCH, status GET (Range), PATCH, PUT; then HEAD and GET with Range', async () => {
    const started = await world.client.startUpload(repo);
    if (started.mounted) throw new Error('not a mount');
    const first = await world.client.patchUpload(
      repo,
      started.location,
      layer.subarray(0, 70_000),
      0,
      70_000,
    );
    expect(first.offset).toBe(70_000);
    const status = await world.client.uploadStatus(repo, first.location);
    expect(status?.offset).toBe(70_000);
    const second = await world.client.patchUpload(
      repo,
      status!.location,
      layer.subarray(70_000),
      70_000,
      layer.length - 70_000,
    );
    await world.client.completeUpload(repo, second.location, sha(layer));

    expect(await world.client.headBlob(repo, sha(layer))).toBe(layer.length);
    const part = await world.client.getBlob(repo, sha(layer), 150_000);
    expect(part.start).toBe(150_000);
    expect(Buffer.concat(await part.body.toArray()).equals(layer.subarray(150_000))).toBe(true);
  });

  it('cancel: DELETE an upload, after which its status is gone', async () => {
    const started = await world.client.startUpload(repo);
    if (started.mounted) throw new Error('not a mount');
    const after = await world.client.patchUpload(repo, started.location, Buffer.from('abc'), 0, 3);
    await world.client.cancelUpload(repo, after.location);
    expect(await world.client.uploadStatus(repo, after.location)).toBeUndefined();
  });

  it('monolithic upload, manifest PUT/GET/HEAD, mount into another repository, tags, DELETE by digest', async () => {
    const started = await world.client.startUpload(repo);
    if (started.mounted) throw new Error('not a mount');
    await world.client.completeUpload(repo, started.location, sha(config), {
      data: config,
      length: config.length,
    });
    expect(await world.client.headBlob(repo, sha(config))).toBe(config.length);

    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: {
          mediaType: 'application/vnd.oci.image.config.v1+json',
          digest: sha(config),
          size: config.length,
        },
        layers: [
          { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha(layer), size: layer.length },
        ],
      }),
    );
    expect(await world.client.putManifest(repo, 'v1', manifest, OCI_MANIFEST)).toBe(sha(manifest));
    const got = await world.client.getManifest(repo, 'v1');
    expect(got.digest).toBe(sha(manifest));
    expect(got.bytes.equals(manifest)).toBe(true);
    expect(await world.client.headManifest(repo, 'v1')).toEqual({
      digest: sha(manifest),
      mediaType: OCI_MANIFEST,
      size: manifest.length,
    });
    expect(await world.client.headManifest(repo, 'nope')).toBeUndefined();

    const other = { ...repo, repository: 'ops/mounted' };
    expect(await world.client.startUpload(other, { digest: sha(layer), from: repo.repository })).toEqual({
      mounted: true,
    });
    expect(await world.client.headBlob(other, sha(layer))).toBe(layer.length);

    await world.client.putManifest(repo, 'v2', manifest, OCI_MANIFEST);
    const tags: string[] = [];
    for await (const t of world.client.listTags(repo)) tags.push(t);
    expect(tags.sort()).toEqual(['v1', 'v2']);

    expect(await world.client.deleteManifest(repo, sha(manifest))).toBe('deleted');
    expect(await world.client.headManifest(repo, 'v1')).toBeUndefined();
    expect(await world.client.headManifest(repo, 'v2')).toBeUndefined();
  });

  it('a user without push gets an AuthError for an upload', async () => {
    const anonymous = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock: systemClock, retryBaseMs: 1 }),
      clock: systemClock,
      credentials: async () => undefined,
    });
    // Pull works anonymously (the emulator grants pull), push does not.
    expect(await anonymous.headBlob(repo, sha(layer))).toBe(layer.length);
    await expect(anonymous.startUpload(repo)).rejects.toBeInstanceOf(AuthError);
  });
});
