// Index trees in memory: the walk's order (children before their index, each manifest once), the
// depth bound and the cycle guard, and the platform search through nested indexes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ExitCode, NotFoundError, ValidationError } from '../../src/errors.js';
import {
  findPlatform,
  MAX_INDEX_DEPTH,
  manifestsBelow,
  type TreeManifest,
} from '../../src/image/manifest-tree.js';
import { parseManifest } from '../../src/oci/manifest.js';
import type { Descriptor } from '../../src/oci/media-types.js';

const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

/** A store of manifests with real digests, and a fetch that counts what it was asked for. */
function store() {
  const byDigest = new Map<string, TreeManifest>();
  const fetched: string[] = [];
  const add = (body: object, digest?: string): TreeManifest => {
    const bytes = Buffer.from(JSON.stringify(body));
    const parsed = parseManifest(bytes, undefined, 'test');
    const m = { digest: digest ?? sha(bytes.toString()), mediaType: parsed.mediaType, bytes, parsed };
    byDigest.set(m.digest, m);
    return m;
  };
  const image = (platform: string): TreeManifest =>
    add({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha(platform), size: 2 },
      layers: [
        { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha(`l-${platform}`), size: 3 },
      ],
    });
  const entry = (m: TreeManifest, platform?: string): Descriptor => {
    const [os, architecture, variant] = (platform ?? '').split('/') as [string, string, string?];
    return {
      mediaType: m.mediaType,
      digest: m.digest,
      size: m.bytes.length,
      ...(platform ? { platform: { os, architecture, ...(variant ? { variant } : {}) } } : {}),
    };
  };
  /** An index of images (a platform string) and other indexes (a manifest). */
  const index = (entries: (string | TreeManifest)[], digest?: string): TreeManifest =>
    add(
      {
        schemaVersion: 2,
        mediaType: OCI_INDEX,
        manifests: entries.map((e) => (typeof e === 'string' ? entry(image(e), e) : entry(e))),
      },
      digest,
    );
  const fetch = async (d: Descriptor): Promise<TreeManifest> => {
    fetched.push(d.digest);
    const m = byDigest.get(d.digest);
    if (!m) throw new Error(`not in the store: ${d.digest}`);
    return m;
  };
  return { index, image, fetch, fetched, byDigest };
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('it should have failed'),
    (e) => e,
  );

describe('manifestsBelow', () => {
  it('lists every manifest once, children before the index that lists them', async () => {
    const s = store();
    const inner = s.index(['linux/arm64']);
    const middle = s.index(['linux/amd64', inner]);
    // amd64 is listed twice (a diamond): it is fetched and listed once.
    const top = s.index(['linux/s390x', middle, 'linux/amd64']);
    const below = await manifestsBelow(top, s.fetch, 'app:1');
    const names = new Map([
      [s.image('linux/s390x').digest, 's390x'],
      [s.image('linux/amd64').digest, 'amd64'],
      [s.image('linux/arm64').digest, 'arm64'],
      [inner.digest, 'inner'],
      [middle.digest, 'middle'],
    ]);
    expect(below.map((m) => names.get(m.digest))).toEqual(['s390x', 'amd64', 'arm64', 'inner', 'middle']);
    expect(s.fetched).toHaveLength(5);
  });

  it('takes a tree as deep as the bound, and refuses one level more before fetching below it', async () => {
    const s = store();
    let node = s.index(['linux/amd64']);
    for (let i = 1; i < MAX_INDEX_DEPTH; i++) node = s.index([node]);
    expect(await manifestsBelow(node, s.fetch, 'app:1')).toHaveLength(MAX_INDEX_DEPTH);

    const deeper = s.index([node]);
    s.fetched.length = 0;
    const err = await fail(manifestsBelow(deeper, s.fetch, 'oci:/tmp/x:deep'));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.exitCode).toBe(ExitCode.USAGE);
    expect(err.message).toBe(`oci:/tmp/x:deep nests indexes more than ${MAX_INDEX_DEPTH} deep`);
    // The deepest index is fetched, but not the image it lists.
    expect(s.fetched).toHaveLength(MAX_INDEX_DEPTH);
  });

  it('refuses a cycle (which only a source that does not check digests can serve)', async () => {
    const s = store();
    const a = `sha256:${'a'.repeat(64)}`;
    const b = `sha256:${'b'.repeat(64)}`;
    const indexA = s.index([s.index([s.index([], a)], b)], a);
    // A lists B, and B lists A (A was stored again under the same name, now listing B).
    expect(indexA.parsed.kind === 'index' && indexA.parsed.index.manifests[0]!.digest).toBe(b);
    const err = await fail(manifestsBelow(indexA, s.fetch, 'app:1'));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(`app:1: the index ${a} lists itself, directly or through its entries`);

    const self = `sha256:${'c'.repeat(64)}`;
    const selfish = s.index([s.index([], self)], self);
    expect((await fail(manifestsBelow(selfish, s.fetch, 'app:1'))).message).toContain(
      `index ${self} lists itself`,
    );
  });
});

describe('findPlatform', () => {
  it('finds a platform deep in nested indexes, depth-first', async () => {
    const s = store();
    const top = s.index(['linux/s390x', s.index(['linux/amd64', s.index(['linux/arm64/v8'])])]);
    const arm = await findPlatform(top, { os: 'linux', architecture: 'arm64' }, s.fetch, 'app:1');
    expect(arm.digest).toBe(s.image('linux/arm64/v8').digest);
    const amd = await findPlatform(top, { os: 'linux', architecture: 'amd64' }, s.fetch, 'app:1');
    expect(amd.digest).toBe(s.image('linux/amd64').digest);
  });

  it("prefers an index's own entry for the platform to one in a nested index listed before it", async () => {
    const s = store();
    const nested = s.index(['linux/arm64']);
    const top = s.index([nested, 'linux/amd64']);
    const amd = await findPlatform(top, { os: 'linux', architecture: 'amd64' }, s.fetch, 'app:1');
    expect(amd.digest).toBe(s.image('linux/amd64').digest);
    expect(s.fetched).toEqual([s.image('linux/amd64').digest]);
  });

  it('goes on to the next nested index when one does not hold the platform', async () => {
    const s = store();
    const first = s.index(['linux/arm64']);
    const second = s.index(['linux/amd64']);
    const top = s.index([first, second]);
    const amd = await findPlatform(top, { os: 'linux', architecture: 'amd64' }, s.fetch, 'app:1');
    expect(amd.digest).toBe(s.image('linux/amd64').digest);
    expect(s.fetched).toEqual([first.digest, second.digest, amd.digest]);
  });

  it('names the platforms of the whole tree when none matches', async () => {
    const s = store();
    const top = s.index(['linux/s390x', s.index(['linux/amd64', s.index(['linux/arm/v7'])])]);
    const err = await fail(findPlatform(top, { os: 'windows', architecture: 'amd64' }, s.fetch, 'app:1'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('app:1 has no image for windows/amd64');
    expect(err.hint).toBe('Platforms available: linux/s390x, linux/amd64, linux/arm/v7.');
  });

  it('is bounded in depth like the walk', async () => {
    const s = store();
    let node = s.index(['linux/amd64']);
    for (let i = 0; i < MAX_INDEX_DEPTH; i++) node = s.index([node]);
    const err = await fail(findPlatform(node, { os: 'linux', architecture: 'amd64' }, s.fetch, 'app:1'));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(`app:1 nests indexes more than ${MAX_INDEX_DEPTH} deep`);
  });
});
