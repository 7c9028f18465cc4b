// Nested indexes (an index that lists indexes) against real registries: push sends the whole tree,
// pull --all-platforms writes it, copy --all-platforms keeps every digest, a platform is found deep
// in the tree, and a tree nested too deep is refused before anything is sent. What the registry
// holds is read over plain HTTP, not through hubctl.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_INDEX_DEPTH } from '../../src/image/manifest-tree.js';
import { blobDigests, type MadeTree, makeNestedIndex, type TreeSpec } from '../support/oci-images.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

describeWithRegistry('nested indexes', () => {
  let w: ImageWorld;
  let second: RunningRegistry;
  let env: Record<string, string>;
  let tree: MadeTree;
  let R: string;
  /** Every manifest of the tree (indexes and images) and every blob, by digest. */
  let manifests: { digest: string; mediaType: string }[];
  let blobs: string[];

  /** A registry token from the hub emulator, as alice. */
  async function token(repo: string, actions: string): Promise<string> {
    const q = new URLSearchParams({
      service: w.hub.registryAuth.service,
      scope: `repository:${repo}:${actions}`,
    });
    const auth = Buffer.from('alice:alice-password').toString('base64');
    const res = await fetch(`${w.hub.registryAuth.realm}?${q}`, {
      headers: { authorization: `Basic ${auth}` },
    });
    return ((await res.json()) as { token: string }).token;
  }

  /** GET or HEAD on a registry, with a pull token. */
  async function registryRead(url: string, repo: string, path: string, method = 'GET') {
    const res = await fetch(`${url}/v2/${repo}/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await token(repo, 'pull')}`,
        accept: 'application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json',
      },
    });
    const body = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      body,
      type: res.headers.get('content-type'),
      length: res.headers.get('content-length'),
    };
  }

  /** The registry at `url` holds every manifest of the tree with its bytes, and every blob. */
  async function expectWholeTree(url: string, repo: string) {
    for (const m of manifests) {
      const r = await registryRead(url, repo, `manifests/${m.digest}`);
      expect(r.status, m.digest).toBe(200);
      expect(sha256(r.body)).toBe(m.digest);
      expect(r.type).toBe(m.mediaType);
    }
    for (const d of blobs) {
      const r = await registryRead(url, repo, `blobs/${d}`, 'HEAD');
      expect(r.status, d).toBe(200);
      expect(Number(r.length)).toBe(readFileSync(join(tree.dir, 'blobs', 'sha256', d.slice(7))).length);
    }
  }

  beforeAll(async () => {
    w = await startImageWorld();
    second = await startRegistry(w.hub.registryAuth);
    R = w.registry.host;
    env = w.withCredentialsFor([R, second.host]);
    // top: s390x, index(amd64, arm64/v8), index(index(ppc64le), amd64): three levels, and amd64 in
    // two indexes.
    tree = await makeNestedIndex(
      join(w.tmp, 'tree'),
      ['linux/s390x', ['linux/amd64', 'linux/arm64/v8'], [['linux/ppc64le'], 'linux/amd64']],
      { tag: 'n', layers: 1, layerSize: 64 * 1024 },
    );
    manifests = [...tree.indexes, ...tree.images.map((im) => im.manifest)];
    blobs = blobDigests(tree);
  });
  afterAll(async () => {
    await second?.stop();
    await w?.stop();
  });

  const image = (platform: string) =>
    tree.images.find(
      (im) =>
        [im.platform.os, im.platform.architecture, im.platform.variant].filter(Boolean).join('/') ===
        platform,
    )!;

  it('push sends every blob once, then every manifest of the tree, then the top under the tag', async () => {
    expect(tree.indexes).toHaveLength(4);
    expect(tree.images).toHaveLength(4);
    const r = await w.run(['--json', 'image', 'push', `oci:${tree.dir}:n`, `${R}/nested/app:1`], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.digest).toBe(tree.top.digest);
    const pushed = out.blobs.map((b: { digest: string }) => b.digest);
    expect(pushed).toHaveLength(blobs.length);
    expect([...pushed].sort()).toEqual([...blobs].sort());
    expect(out.blobs.every((b: { action: string }) => b.action === 'pushed')).toBe(true);

    await expectWholeTree(w.registry.url, 'nested/app');
    const tagged = await registryRead(w.registry.url, 'nested/app', 'manifests/1');
    expect(sha256(tagged.body)).toBe(tree.top.digest);
  });

  it('the registry refuses an index whose entries it lacks, so the push had to go bottom-up', async () => {
    const top = readFileSync(join(tree.dir, 'blobs', 'sha256', tree.top.digest.slice(7)));
    const res = await fetch(`${w.registry.url}/v2/nested/refused/manifests/x`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${await token('nested/refused', 'pull,push')}`,
        'content-type': tree.top.mediaType,
      },
      body: top,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/MANIFEST_BLOB_UNKNOWN/);
  });

  it('pull --all-platforms writes every manifest and blob of the tree, each verified', async () => {
    const dest = join(w.tmp, 'pulled-all');
    const r = await w.run(
      ['--json', 'image', 'pull', '--all-platforms', `${R}/nested/app:1`, `oci:${dest}:x`],
      {
        env,
      },
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).digest).toBe(tree.top.digest);
    const files = readdirSync(join(dest, 'blobs', 'sha256')).sort();
    expect(files).toEqual([...manifests.map((m) => m.digest), ...blobs].map((d) => d.slice(7)).sort());
    for (const f of files) expect(sha256(readFileSync(join(dest, 'blobs', 'sha256', f)))).toBe(`sha256:${f}`);
    const index = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8'));
    expect(index.manifests).toEqual([
      {
        mediaType: tree.top.mediaType,
        digest: tree.top.digest,
        size: tree.top.size,
        annotations: { 'org.opencontainers.image.ref.name': 'x' },
      },
    ]);
  });

  it('pull picks a platform from inside nested indexes, and names the platforms when none fits', async () => {
    for (const platform of ['linux/ppc64le', 'linux/arm64', 'linux/s390x']) {
      const dest = join(w.tmp, `pulled-${platform.replaceAll('/', '-')}`);
      const r = await w.run(
        ['--json', 'image', 'pull', '--platform', platform, `${R}/nested/app:1`, `oci:${dest}`],
        { env },
      );
      expect(r.code, platform).toBe(0);
      const want = image(platform === 'linux/arm64' ? 'linux/arm64/v8' : platform);
      expect(JSON.parse(r.stdout).digest).toBe(want.manifest.digest);
      const files = readdirSync(join(dest, 'blobs', 'sha256')).sort();
      expect(files).toEqual(
        [want.manifest.digest, want.config.digest, ...want.layers.map((l) => l.digest)]
          .map((d) => d.slice(7))
          .sort(),
      );
    }
    const none = await w.run(
      ['image', 'pull', '--platform', 'windows/amd64', `${R}/nested/app:1`, `oci:${join(w.tmp, 'none')}`],
      { env },
    );
    expect(none.code).toBe(5);
    expect(none.stderr).toContain(`${R}/nested/app:1 has no image for windows/amd64`);
    expect(none.stderr).toContain('linux/s390x, linux/amd64, linux/arm64/v8, linux/ppc64le');
  });

  it('copy --all-platforms to another registry keeps every digest of the tree', async () => {
    const r = await w.run(
      ['--json', 'image', 'copy', '--all-platforms', `${R}/nested/app:1`, `${second.host}/copied/app:1`],
      { env },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.digest).toBe(tree.top.digest);
    expect(out.blobs.map((b: { digest: string }) => b.digest).sort()).toEqual([...blobs].sort());
    await expectWholeTree(second.url, 'copied/app');
    const tagged = await registryRead(second.url, 'copied/app', 'manifests/1');
    expect(sha256(tagged.body)).toBe(tree.top.digest);

    // Within one registry, every blob is mounted.
    const m = await w.run(
      ['--json', 'image', 'copy', '--all-platforms', `${R}/nested/app:1`, `${R}/mirror/app:1`],
      {
        env,
      },
    );
    expect(m.code).toBe(0);
    expect(JSON.parse(m.stdout).blobs.every((b: { action: string }) => b.action === 'mounted')).toBe(true);
    await expectWholeTree(w.registry.url, 'mirror/app');
  });

  it('inspect marks nested entries as indexes, and --platform searches into them', async () => {
    const i = await w.run(['--json', 'image', 'inspect', `${R}/nested/app:1`], { env });
    expect(i.code).toBe(0);
    expect(JSON.parse(i.stdout).platforms).toEqual(['linux/s390x', 'index', 'index']);
    const plain = await w.run(['image', 'inspect', `${R}/nested/app:1`], { env });
    expect(plain.code).toBe(0);
    // The top's entries in order: s390x, then the two nested indexes.
    const topIndex = JSON.parse(
      readFileSync(join(tree.dir, 'blobs', 'sha256', tree.top.digest.slice(7)), 'utf8'),
    );
    expect(plain.stdout).toContain(`index\t${topIndex.manifests[1].digest}\t`);
    expect(plain.stdout).toContain(`index\t${topIndex.manifests[2].digest}\t`);

    const arm = await w.run(
      ['--json', 'image', 'inspect', '--platform', 'linux/ppc64le', `${R}/nested/app:1`],
      {
        env,
      },
    );
    expect(arm.code).toBe(0);
    expect(JSON.parse(arm.stdout).digest).toBe(image('linux/ppc64le').manifest.digest);
    expect(JSON.parse(arm.stdout).config.architecture).toBe('ppc64le');
  });

  it('delete removes the top index only, and says which manifests below it stay', async () => {
    const repo = 'nested/del';
    expect((await w.run(['image', 'push', `oci:${tree.dir}:n`, `${R}/${repo}:1`], { env })).code).toBe(0);
    const amd64 = image('linux/amd64').manifest.digest;
    const tagged = await w.run(['image', 'copy', `${R}/${repo}@${amd64}`, `${R}/${repo}:amd64`], { env });
    expect(tagged.code).toBe(0);
    const below = manifests.filter((m) => m.digest !== tree.top.digest);
    expect(below).toHaveLength(7);

    const dry = await w.run(['--json', 'image', 'delete', '--dry-run', `${R}/${repo}:1`], { env });
    expect(dry.code).toBe(0);
    const plan = JSON.parse(dry.stdout);
    expect(plan).toMatchObject({ digest: tree.top.digest, tags: ['1'], deleted: false });
    expect(plan.kept.map((k: { digest: string }) => k.digest).sort()).toEqual(
      below.map((m) => m.digest).sort(),
    );
    for (const k of plan.kept) {
      expect(k.mediaType).toBe(below.find((m) => m.digest === k.digest)!.mediaType);
      expect(k.tags).toEqual(k.digest === amd64 ? ['amd64'] : []);
    }
    expect(plan.kept.find((k: { digest: string }) => k.digest === amd64).platform).toBe('linux/amd64');

    const text = await w.run(['image', 'delete', '--dry-run', `${R}/${repo}:1`], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`${R}/${repo}@${tree.top.digest}\n${R}/${repo}:1\n`);
    expect(text.stderr).toContain('Not deleted: the 7 manifests below this index (3 indexes, 4 images)');
    expect(text.stderr).toContain(`  ${amd64} linux/amd64 (tag: amd64)\n`);
    expect(text.stderr).toContain(`  ${image('linux/s390x').manifest.digest} linux/s390x (untagged)\n`);
    expect(text.stderr).toContain('Dry run: nothing was deleted.');
    expect((await registryRead(w.registry.url, repo, `manifests/${tree.top.digest}`)).status).toBe(200);

    const del = await w.run(['--yes', 'image', 'delete', `${R}/${repo}:1`], { env });
    expect(del.code).toBe(0);
    expect(del.stderr).toContain(
      `Deleted ${R}/${repo}@${tree.top.digest} (tags: 1). The 7 manifests below it stay.`,
    );
    expect((await registryRead(w.registry.url, repo, `manifests/${tree.top.digest}`)).status).toBe(404);
    for (const m of below) {
      expect((await registryRead(w.registry.url, repo, `manifests/${m.digest}`)).status, m.digest).toBe(200);
    }
    expect((await w.run(['image', 'digest', `${R}/${repo}:amd64`], { env })).stdout.trim()).toBe(amd64);
  });

  it('push refuses a tree nested deeper than the bound before sending anything (exit 2)', async () => {
    let spec: TreeSpec[] = ['linux/amd64'];
    for (let i = 0; i < MAX_INDEX_DEPTH; i++) spec = [spec];
    const deep = await makeNestedIndex(join(w.tmp, 'deep'), spec, { tag: 'd', layers: 1, layerSize: 1024 });
    expect(deep.indexes).toHaveLength(MAX_INDEX_DEPTH + 1);
    const r = await w.run(['image', 'push', `oci:${deep.dir}:d`, `${R}/nested/deep:1`], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`oci:${deep.dir}:d nests indexes more than ${MAX_INDEX_DEPTH} deep`);
    const layer = deep.images[0]!.layers[0]!.digest;
    expect((await registryRead(w.registry.url, 'nested/deep', `blobs/${layer}`, 'HEAD')).status).toBe(404);
  });
});
