// `image sync -f FILE` end to end between two real registries (distribution 2.8): the plan and
// --dry-run, filters in the order, idempotence, a failed mapping beside a good one, a run
// killed half way and run again, platforms and referrers; and `image tags` with the same filters.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RegistryClient } from '../../src/api/registry/client.js';
import { systemClock } from '../../src/clock.js';
import { createHttpClient } from '../../src/http/client.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { makeOciImage } from '../support/oci-images.js';
import { type RunningRegistry, startRegistry } from '../support/registry.js';
import { BIN, ensureBuilt, runBin } from '../support/run-bin.js';
import { describeWithTools } from '../support/tools.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

describeWithTools(['docker-registry'], 'image sync', () => {
  let w: ImageWorld;
  let dst: RunningRegistry;
  let S: string;
  let D: string;
  let env: Record<string, string>;
  let client: RegistryClient;
  const run = (argv: string[]) => w.run(argv, { env });
  const file = (name: string, text: string) => {
    const path = join(w.tmp, name);
    writeFileSync(path, text);
    return path;
  };
  /** An index of three one-layer images (amd64, arm64, s390x), pushed as `S/base/NAME:1`. */
  const pushThreePlatforms = async (name: string) => {
    const img = await makeOciImage(join(w.tmp, name), {
      tag: 'm',
      layers: 1,
      layerSize: 1024,
      platforms: ['linux/amd64', 'linux/arm64', 'linux/s390x'],
    });
    expect((await run(['image', 'push', `oci:${img.dir}:m`, `${S}/base/${name}:1`])).code).toBe(0);
    return img;
  };
  const tagsAt = async (repo: string) => {
    const r = await run(['--json', 'image', 'tags', repo]);
    return r.code === 0 ? (JSON.parse(r.stdout) as string[]).sort() : [];
  };

  beforeAll(async () => {
    w = await startImageWorld();
    dst = await startRegistry(w.hub.registryAuth);
    S = w.registry.host;
    D = dst.host;
    env = w.withCredentialsFor([S, D]);
    client = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock: systemClock, retryBaseMs: 1 }),
      clock: systemClock,
      credentials: async () => ({ username: 'alice', secret: 'alice-password' }),
    });
    // node: three different images, re-tagged under versions, release candidates and latest.
    const images: { bytes: Buffer; mediaType: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const img = await makeOciImage(join(w.tmp, `node-${i}`), { tag: 'x', layers: 1, layerSize: 2048 });
      const r = await run(['image', 'push', `oci:${img.dir}:x`, `${S}/base/node:seed${i}`]);
      expect(r.code, r.stderr).toBe(0);
      const m = await client.getManifest({ registry: S, repository: 'base/node' }, `seed${i}`);
      images.push({ bytes: m.bytes, mediaType: m.mediaType });
    }
    const tags = ['19.9.9', '20.1.0', '20.1.0-rc1', '21.0.0', '22.0.0', '22.1.0', 'latest', '23.0.0-rc1'];
    for (const [i, tag] of tags.entries()) {
      const im = images[i % 3]!;
      await client.putManifest({ registry: S, repository: 'base/node' }, tag, im.bytes, im.mediaType);
    }
  });
  afterAll(async () => {
    await dst?.stop();
    await w?.stop();
  });

  const nodeMapping = (dest: string, extra = '') => `sync:
  - source: ${S}/base/node
    destination: ${D}/${dest}
    tags: {include: ['^\\d+\\.\\d+\\.\\d+$'], exclude: ['-rc'], semver: '>=20.0.0', latest: 3}
${extra}`;

  it('image tags filters as sync does', async () => {
    const r = await run([
      'image',
      'tags',
      `${S}/base/node`,
      '--include',
      '^\\d',
      '--exclude',
      '-rc',
      '--semver',
      '>=20',
      '--sort',
      'semver',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('20.1.0\n21.0.0\n22.0.0\n22.1.0\n');
    const byName = await run([
      '--json',
      'image',
      'tags',
      `${S}/base/node`,
      '--include',
      'rc',
      '--sort',
      'name',
    ]);
    expect(JSON.parse(byName.stdout)).toEqual(['20.1.0-rc1', '23.0.0-rc1']);
    const bad = await run(['image', 'tags', `${S}/base/node`, '--semver', 'newest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hubctl: --semver: "newest" is not a semver range/);
  });

  it('--dry-run prints the plan and copies nothing', async () => {
    const f = file('dry.yaml', nodeMapping('mirror/dry'));
    const r = await run(['image', 'sync', '-f', f, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('copy ')).map((l) => l.split(' ')[1])).toEqual([
      `${S}/base/node:21.0.0`,
      `${S}/base/node:22.0.0`,
      `${S}/base/node:22.1.0`,
    ]);
    // What include, exclude and semver leave out is listed (latest's cut is counted).
    expect(
      lines
        .filter((l) => l.startsWith('filtered '))
        .map((l) => l.split(' ')[1]!.split(':').pop())
        .sort(),
    ).toEqual(['19.9.9', '20.1.0-rc1', '23.0.0-rc1', 'latest', 'seed0', 'seed1', 'seed2'].sort());
    expect(r.stderr).toContain('Plan: 3 to copy, 0 already there, 8 filtered out, 0 failed.');
    expect(await tagsAt(`${D}/mirror/dry`)).toEqual([]);
  });

  it('copies, then a second run copies nothing; a bad mapping fails in one sentence and the rest runs', async () => {
    const f = file(
      'both.yaml',
      `${nodeMapping('mirror/node')}  - source: ${S}/base/absent
    destination: ${D}/mirror/absent
`,
    );
    const first = await run(['--json', 'image', 'sync', '-f', f, '--concurrency', '2']);
    expect(first.code).toBe(1);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ copied: 3, already: 0, filtered: 8, failed: 1 });
    expect(report.bytes).toBeGreaterThan(0);
    expect(typeof report.seconds).toBe('number');
    const failed = report.items.find((i: { status: string }) => i.status === 'failed');
    expect(failed).toMatchObject({ source: `${S}/base/absent`, destination: `${D}/mirror/absent` });
    expect(failed.error).not.toContain('\n');
    expect(await tagsAt(`${D}/mirror/node`)).toEqual(['21.0.0', '22.0.0', '22.1.0']);
    // Same digests at both ends.
    const a = await client.getManifest({ registry: S, repository: 'base/node' }, '22.1.0');
    const b = await client.getManifest({ registry: D, repository: 'mirror/node' }, '22.1.0');
    expect(b.digest).toBe(a.digest);

    const second = await run([
      '--json',
      'image',
      'sync',
      '-f',
      file('node.yaml', nodeMapping('mirror/node')),
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ copied: 0, already: 3, failed: 0, bytes: 0 });
  });

  it('eight tags at once sharing their layers all arrive (each blob is put once per repository)', async () => {
    const f = file('eight.yaml', `sync:\n  - source: ${S}/base/node\n    destination: ${D}/mirror/eight\n`);
    const r = await run(['--json', 'image', 'sync', '-f', f, '--concurrency', '8']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ copied: 11, failed: 0 });
  });

  it('the copy writes the manifest the plan read: each source manifest is asked for once', async () => {
    const f = file('once.yaml', `sync:\n  - source: ${S}/base/node\n    destination: ${D}/mirror/once\n`);
    const r = await run(['--debug', '--json', 'image', 'sync', '-f', f, '--concurrency', '4']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ copied: 11, failed: 0 });
    const gets = r.stderr.match(new RegExp(`> GET http://${S}/v2/base/node/manifests/[^\\s]+`, 'g')) ?? [];
    const tags = gets.map((l) => l.split('/').pop());
    expect(tags.sort()).toEqual(report.items.map((i: { tag: string }) => i.tag).sort());
    for (const item of report.items) {
      const at = await client.getManifest({ registry: D, repository: 'mirror/once' }, item.tag);
      expect(at.digest).toBe(item.digest);
    }
  });

  it('requests per tag: a manifest GET at the source, a HEAD at the destination when its tag list names the tag, each new blob read once and sent in a POST and a PUT, the manifest PUT', async () => {
    // Six tags, each with a config of its own, sharing one layer.
    const repo = { registry: S, repository: 'base/many' };
    const seed = await client.getManifest({ registry: S, repository: 'base/node' }, 'seed0');
    const doc = JSON.parse(seed.bytes.toString()) as { config: { digest: string; size: number } };
    const layer = (doc as unknown as { layers: { digest: string }[] }).layers[0]!.digest;
    const mounted = await client.startUpload(repo, { digest: layer, from: 'base/node' });
    expect(mounted.mounted).toBe(true);
    const N = 6;
    for (let i = 0; i < N; i++) {
      const cfg = Buffer.from(
        JSON.stringify({
          architecture: 'amd64',
          os: 'linux',
          rootfs: { type: 'layers', diff_ids: [] },
          n: i,
        }),
      );
      const digest = `sha256:${createHash('sha256').update(cfg).digest('hex')}`;
      const up = await client.startUpload(repo);
      if (up.mounted) throw new Error('not a mount');
      await client.completeUpload(repo, up.location, digest, { data: cfg, length: cfg.length });
      const m = Buffer.from(JSON.stringify({ ...doc, config: { ...doc.config, digest, size: cfg.length } }));
      await client.putManifest(repo, `1.${i}`, m, seed.mediaType);
    }
    const f = file('many.yaml', `sync:\n  - source: ${S}/base/many\n    destination: ${D}/mirror/many\n`);
    // A state directory of its own: no blob known from the other tests' runs to mount from.
    const own = { env: w.withCredentialsFor([S, D]) };
    const runCounted = async () => {
      w.hub.clearRequests();
      const r = await w.run(['--debug', '--json', 'image', 'sync', '-f', f, '--concurrency', '3'], own);
      expect(r.code, r.stderr).toBe(0);
      const seen = (r.stderr.match(/^\[debug\] > [A-Z]+ \S+/gm) ?? []).map((l) =>
        l
          .slice('[debug] > '.length)
          .replace(`http://${S}`, 'S')
          .replace(`http://${D}`, 'D')
          .replace(/sha256:[0-9a-f]{64}/, 'DIGEST')
          .replace(/\/manifests\/[^/?]+$/, '/manifests/TAG')
          .replace(/\/uploads\/.*/, '/uploads/'),
      );
      const count = (what: string) => seen.filter((x) => x === what).length;
      return {
        report: JSON.parse(r.stdout),
        seen,
        count,
        tokens: w.hub.requestsTo('/registry/token').length,
      };
    };

    const first = await runCounted();
    expect(first.report).toMatchObject({ copied: N, failed: 0 });
    expect(first.count('GET S/v2/base/many/manifests/TAG')).toBe(N);
    // The destination's list (404: no repository yet) says no tag is there: no HEADs.
    expect(first.count('GET D/v2/mirror/many/tags/list')).toBe(1);
    expect(first.count('HEAD D/v2/mirror/many/manifests/TAG')).toBe(0);
    expect(first.count('GET S/v2/base/many/blobs/DIGEST')).toBe(N + 1);
    expect(first.count('POST D/v2/mirror/many/blobs/uploads/')).toBe(N + 1);
    expect(first.count('PUT D/v2/mirror/many/blobs/uploads/')).toBe(N + 1);
    expect(first.count('PUT D/v2/mirror/many/manifests/TAG')).toBe(N);
    // Nothing else but the tag list and one /v2/ probe at each end: no blob HEADs, no manifest GET
    // at the destination, and tokens per scope, not per tag.
    expect(first.seen.length - 4 - first.tokens).toBe(5 * N + 3);
    expect(first.tokens).toBeLessThanOrEqual(3);

    // Again: each tag is listed at the destination, so asked at both ends with a HEAD (no
    // manifest is read: a registry that counts pulls by GETs counts none), and found.
    const second = await runCounted();
    expect(second.report).toMatchObject({ copied: 0, already: N, failed: 0 });
    expect(second.count('HEAD D/v2/mirror/many/manifests/TAG')).toBe(N);
    expect(second.count('HEAD S/v2/base/many/manifests/TAG')).toBe(N);
    expect(second.count('GET S/v2/base/many/manifests/TAG')).toBe(0);
    expect(second.seen.length - 4 - second.tokens).toBe(2 * N);

    // A tag moved at the source: its HEAD differs, so it alone is read (GET) and copied.
    const moved = await client.getManifest(repo, '1.1');
    await client.putManifest(repo, '1.0', moved.bytes, moved.mediaType);
    const third = await runCounted();
    expect(third.report).toMatchObject({ copied: 1, already: N - 1, failed: 0 });
    expect(third.report.items.find((i: { tag: string }) => i.tag === '1.0').digest).toBe(moved.digest);
    expect(third.count('GET S/v2/base/many/manifests/TAG')).toBe(1);
    expect(third.count('HEAD S/v2/base/many/manifests/TAG')).toBe(N);

    // Under new names, the same images: copied by their manifests alone (every blob is there).
    const renamed = file(
      'renamed.yaml',
      `sync:\n  - source: ${S}/base/many\n    destination: ${D}/mirror/many\n`,
    );
    for (let i = 0; i < N; i++) {
      const m = await client.getManifest(repo, `1.${i}`);
      await client.putManifest(repo, `2.${i}`, m.bytes, m.mediaType);
    }
    const fourth = await w.run(['--debug', '--json', 'image', 'sync', '-f', renamed], own);
    expect(JSON.parse(fourth.stdout)).toMatchObject({ copied: N, already: N, bytes: 0, failed: 0 });
    expect(fourth.stderr).not.toMatch(/> HEAD http:\/\/[^ ]+\/blobs\/sha256/);
    expect(fourth.stderr).not.toMatch(/> PUT http:\/\/[^ ]+\/blobs\/uploads/);
    // (Each blob's read, begun while its POST was on its way, is dropped when the POST says the
    // repository holds it: at most one GET a blob.)
    expect((fourth.stderr.match(/> GET http:\/\/[^ ]+\/blobs\/sha256/g) ?? []).length).toBeLessThanOrEqual(
      N + 1,
    );
  });

  it('within one registry each blob is mounted from the source repository: no blob is read or sent', async () => {
    const f = file(
      'local.yaml',
      `sync:\n  - source: ${S}/base/node\n    destination: ${S}/mirror/local\n    tags: {include: ['^2']}\n`,
    );
    const r = await w.run(['--debug', '--json', 'image', 'sync', '-f', f], {
      env: w.withCredentialsFor([S, D]),
    });
    expect(r.code, r.stderr).toBe(0);
    // Mounted, not sent: no byte counted.
    expect(JSON.parse(r.stdout)).toMatchObject({ copied: 6, failed: 0, bytes: 0 });
    const posts = r.stderr.match(/^\[debug\] > POST \S+/gm) ?? [];
    expect(posts.length).toBeGreaterThan(0);
    for (const p of posts) expect(p).toContain('from=base%2Fnode');
    expect(r.stderr).not.toMatch(/> (GET|HEAD) http:\/\/[^ ]+\/blobs\/sha256/);
    expect(r.stderr).not.toMatch(/> PUT http:\/\/[^ ]+\/blobs\/uploads/);
  });

  it('a second mapping into the same registry mounts the blobs the first one sent in this run', async () => {
    const f = file(
      'two.yaml',
      `sync:
  - source: ${S}/base/node
    destination: ${D}/mirror/first
    tags: {include: ['^seed']}
  - source: ${S}/base/node
    destination: ${D}/mirror/second
    tags: {include: ['^seed']}
`,
    );
    const r = await w.run(['--debug', '--json', 'image', 'sync', '-f', f, '--concurrency', '1'], {
      env: w.withCredentialsFor([S, D]),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ copied: 6, failed: 0 });
    // Three images of a config and a layer each: six blobs read from the source, once.
    const reads = r.stderr.match(/^\[debug\] > GET \S+\/blobs\/sha256:\S+/gm) ?? [];
    expect(reads).toHaveLength(6);
    expect(new Set(reads).size).toBe(6);
    const mounts = r.stderr.match(/^\[debug\] > POST \S+\/mirror\/second\/blobs\/uploads\/\S*/gm) ?? [];
    expect(mounts).toHaveLength(6);
    for (const m of mounts) expect(m).toContain('from=mirror%2Ffirst');
    expect(r.stderr).not.toMatch(/> PUT \S+\/mirror\/second\/blobs\/uploads/);
    // Bytes are what was sent: the first mapping's blobs, none of the second's (mounted).
    const items = (JSON.parse(r.stdout) as { items: { destination: string; bytes?: number }[] }).items;
    const sent = (dest: string) =>
      items.filter((i) => i.destination.includes(`${dest}:`)).reduce((n, i) => n + (i.bytes ?? 0), 0);
    expect(sent('/mirror/first')).toBeGreaterThan(0);
    expect(sent('/mirror/second')).toBe(0);
  });

  it("the plan asks the destination itself, not a mirror set for the destination's host", async () => {
    // The source registry serves as D's mirror, and holds the image under the destination's path:
    // read through the mirror, the tag would look already there.
    const dir = { env: w.withCredentialsFor([S, D]) };
    const there = { registry: S, repository: 'mirror/viamirror' };
    const m = await client.getManifest({ registry: S, repository: 'base/node' }, '22.1.0');
    const parsed = JSON.parse(m.bytes.toString()) as {
      config: { digest: string };
      layers: { digest: string }[];
    };
    for (const d of [parsed.config.digest, ...parsed.layers.map((l) => l.digest)])
      expect((await client.startUpload(there, { digest: d, from: 'base/node' })).mounted).toBe(true);
    await client.putManifest(there, '22.1.0', m.bytes, m.mediaType);
    expect((await w.run(['config', 'set', `registry.${D}.mirror`, `http://${S}`], dir)).code).toBe(0);
    const f = file(
      'viamirror.yaml',
      `sync:\n  - source: ${S}/base/node\n    destination: ${D}/mirror/viamirror\n    tags: {include: ['^22\\.1\\.0$']}\n`,
    );
    const r = await w.run(['--json', 'image', 'sync', '-f', f], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ copied: 1, already: 0, failed: 0 });
    expect((await client.getManifest({ registry: D, repository: 'mirror/viamirror' }, '22.1.0')).digest).toBe(
      m.digest,
    );
  });

  it('the plan overlaps the tag lists and manifest reads of several mappings, never more than --concurrency', async () => {
    ensureBuilt();
    // A distant source: each tag list and manifest read answered 150 ms late.
    const proxy = await startFaultProxy(w.registry.url);
    try {
      proxy.on('GET', /\/(tags\/list|manifests\/)/, { kind: 'delay', ms: 150 });
      const P = proxy.host;
      const mappings = Array.from(
        { length: 5 },
        (_, i) =>
          `  - source: ${P}/base/node\n    destination: ${D}/mirror/fan${i}\n    tags: {include: ['^2[12]\\.']}\n`,
      );
      const f = file('fan.yaml', `sync:\n${mappings.join('')}`);
      const r = await runBin(['--json', 'image', 'sync', '-f', f, '--dry-run', '--concurrency', '3'], {
        env: { ...env, ...w.withCredentialsFor([S, D, P]) },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ failed: 0 });
      expect(JSON.parse(r.stdout).items).toHaveLength(15);
      const planning = proxy.seen.filter((x) => /\/(tags\/list|manifests\/)/.test(x.path));
      expect(planning).toHaveLength(5 + 15);
      // The most requests in flight at one moment: each arrival against those not yet answered.
      const most = (xs: typeof planning) =>
        Math.max(...xs.map((x) => xs.filter((y) => y.at! <= x.at! && y.done! > x.at!).length));
      expect(most(planning.filter((x) => x.path.includes('/tags/list')))).toBe(3);
      expect(most(planning)).toBe(3);
    } finally {
      await proxy.close();
    }
  });

  it('what the plan read for platforms (child manifests, a config) is not asked for again by the copy', async () => {
    await pushThreePlatforms('multi2');
    const own = { env: w.withCredentialsFor([S, D]) };
    /** Each source manifest and blob read, with how often a run read it. */
    const reads = async (name: string, mapping: string) => {
      const f = file(name, `sync:\n${mapping}`);
      const r = await w.run(['--debug', '--json', 'image', 'sync', '-f', f], own);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ copied: 1, failed: 0 });
      const got = (
        r.stderr.match(new RegExp(`^\\[debug\\] > GET http://${S}/v2/[^ ]+/(manifests|blobs)/[^ ]+`, 'gm')) ??
        []
      ).map((l) => l.split(' ').pop()!);
      const counts = new Map<string, number>();
      for (const g of got) counts.set(g, (counts.get(g) ?? 0) + 1);
      return counts;
    };
    const most = (c: Map<string, number>) => Math.max(...c.values());
    // Two of three platforms: the index, two images and their blobs, each read once.
    const some = await reads(
      'some.yaml',
      `  - source: ${S}/base/multi2\n    destination: ${D}/mirror/some2\n    platforms: [linux/amd64, linux/arm64]\n`,
    );
    expect(most(some)).toBe(1);
    expect([...some.keys()].filter((k) => k.includes('/manifests/'))).toHaveLength(3);
    // All platforms: the index and its three images, once each.
    const all = await reads('all.yaml', `  - source: ${S}/base/multi2\n    destination: ${D}/mirror/all2\n`);
    expect(most(all)).toBe(1);
    expect([...all.keys()].filter((k) => k.includes('/manifests/'))).toHaveLength(4);
    // One platform of a single image: its config, read by the plan to check the platform, once.
    const one = await reads(
      'one.yaml',
      `  - source: ${S}/base/node\n    destination: ${D}/mirror/one2\n    tags: {include: ['^22\\.1\\.0$']}\n    platforms: [linux/amd64]\n`,
    );
    expect(most(one)).toBe(1);
    expect([...one.keys()].filter((k) => k.includes('/blobs/'))).toHaveLength(2);
  });

  it('10,000 tags in 10 pages (Link): every page read, memory bounded, latest 3 planned', async () => {
    ensureBuilt();
    const proxy = await startFaultProxy(w.registry.url);
    try {
      const real = ['21.0.0', '22.0.0', '22.1.0'];
      const all = [...Array.from({ length: 9997 }, (_, i) => `0.${Math.floor(i / 100)}.${i % 100}`), ...real];
      proxy.on('GET', /^\/v2\/base\/node\/tags\/list$/, {
        kind: 'answer',
        answer: (req) => {
          const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '0');
          const tags = all.slice(page * 1000, (page + 1) * 1000);
          const last = (page + 1) * 1000 >= all.length;
          return {
            status: 200,
            json: { name: 'base/node', tags },
            headers: (last
              ? {}
              : { link: `</v2/base/node/tags/list?page=${page + 1}>; rel="next"` }) as Record<string, string>,
          };
        },
      });
      const P = proxy.host;
      const f = file(
        'paged.yaml',
        `sync:\n  - source: ${P}/base/node\n    destination: ${D}/mirror/paged\n    tags: {latest: 3}\n`,
      );
      const r = await runBin(['--json', 'image', 'sync', '-f', f, '--dry-run'], {
        env: { ...env, ...w.withCredentialsFor([S, D, P]) },
      });
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report).toMatchObject({ filtered: 9997, failed: 0 });
      expect(report.items.map((i: { tag: string }) => i.tag)).toEqual(real);
      expect(proxy.seen.filter((x) => x.path.includes('/tags/list')).length).toBe(10);
      expect(r.peakRssKiB === 0 || r.peakRssKiB < 200 * 1024).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('a run killed half way, run again, finishes the rest', async () => {
    ensureBuilt();
    const f = file('kill.yaml', `sync:\n  - source: ${S}/base/node\n    destination: ${D}/mirror/killed\n`);
    const child = spawn(process.execPath, [BIN, 'image', 'sync', '-f', f, '--concurrency', '1'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        if (/^copied /m.test(stderr) && child.exitCode === null) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('close', () => resolve());
    });
    const partial = await tagsAt(`${D}/mirror/killed`);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(11);
    const again = await run(['--json', 'image', 'sync', '-f', f]);
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout);
    expect(report.copied + report.already).toBe(11);
    expect(report.already).toBeGreaterThanOrEqual(partial.length);
    expect((await tagsAt(`${D}/mirror/killed`)).length).toBe(11);
  });

  it('platforms keeps the listed ones of an index; referrers: true carries what points at it', async () => {
    const img = await pushThreePlatforms('multi');
    writeFileSync(join(w.tmp, 'sbom.json'), '{}');
    expect(
      (
        await run([
          'image',
          'attach',
          `${S}/base/multi:1`,
          '--artifact-type',
          'application/spdx+json',
          join(w.tmp, 'sbom.json'),
        ])
      ).code,
    ).toBe(0);
    const f = file(
      'multi.yaml',
      `sync:
  - source: ${S}/base/multi
    destination: ${D}/mirror/subset
    tags: {include: ['^1$']}
    platforms: [linux/amd64, linux/arm64]
  - source: ${S}/base/multi
    destination: ${D}/mirror/whole
    tags: {include: ['^1$']}
    referrers: true
`,
    );
    const r = await run(['--json', 'image', 'sync', '-f', f]);
    expect(r.code, r.stderr).toBe(0);
    const subset = await client.getManifest({ registry: D, repository: 'mirror/subset' }, '1');
    expect(
      subset.parsed.kind === 'index' && subset.parsed.index.manifests.map((m) => m.platform?.architecture),
    ).toEqual(['amd64', 'arm64']);
    const whole = JSON.parse(r.stdout).items.find((i: { destination: string }) =>
      i.destination.includes('whole'),
    );
    expect(whole).toMatchObject({ status: 'copied', digest: img.top.digest, referrers: 1 });
    const list = JSON.parse((await run(['--json', 'image', 'referrers', `${D}/mirror/whole:1`])).stdout);
    expect(list).toHaveLength(1);
    // Again: nothing to do, the subset's rewritten index included.
    const again = JSON.parse((await run(['--json', 'image', 'sync', '-f', f])).stdout);
    expect(again).toMatchObject({ copied: 0, already: 2 });
  });

  it('the file is read strictly: unknown keys with a suggestion, duplicates, types, each with its line', async () => {
    const cases: [string, RegExp][] = [
      [
        `sync:\n  - source: ${S}/a\n    destinaton: ${D}/a\n`,
        /:3: unknown key "destinaton" in sync entry 1 \(did you mean "destination"\?\)/,
      ],
      [
        `sync:\n  - source: ${S}/a\n    destination: ${D}/a\n    source: ${S}/b\n`,
        /:4: the key "source" is given twice/,
      ],
      [
        `sync:\n  - source: ${S}/a\n    destination: ${D}/a\n    tags: {latest: two}\n`,
        /:4: tags.latest must be a whole number/,
      ],
      [
        `sync:\n  - source: ${S}/a\n    destination: ${D}/a\n    tags: {include: ['(']}\n`,
        /:4: tags.include: "\(" is not a valid regular expression/,
      ],
      [
        `sync:\n  - source: ${S}/a\n    destination: ${D}/a\n    referrers: yes\n`,
        /:4: referrers must be true or false/,
      ],
      [`sync:\n  - source: ${S}/a:1\n    destination: ${D}/a\n`, /:2: .*without a tag or digest/],
      [`mirror:\n  - source: x\n`, /:1: unknown key "mirror" in the file/],
      [`sync:\n  - destination: ${D}/a\n`, /:2: sync entry 1 has no "source"/],
    ];
    for (const [text, message] of cases) {
      const f = file('bad.yaml', text);
      const r = await run(['image', 'sync', '-f', f]);
      expect(r.code, text).toBe(2);
      expect(r.stderr.split('\n')[0], text).toMatch(message);
      expect(r.stderr.split('\n')[0]).toMatch(/^hubctl: .*bad\.yaml:\d+: /);
    }
    const missing = await run(['image', 'sync', '-f', join(w.tmp, 'nope.yaml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
