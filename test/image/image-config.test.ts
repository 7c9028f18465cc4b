// A single image (a manifest, not an index) names its platform only in its config: a --platform it
// does not have is refused before anything is written, and the default platform only earns a note.
// Against a real registry (distribution 2.8), whose access log counts the config fetches.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/errors.js';
import { checkSingleImagePlatform, platformInConfig } from '../../src/image/image-config.js';
import { platformMatches } from '../../src/image/platform.js';
import { selectImages } from '../../src/image/select.js';
import type { ImageSource } from '../../src/image/store.js';
import { parseManifest } from '../../src/oci/manifest.js';
import { type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry, startRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

describe('the platform of a single image', () => {
  const arm64 = { os: 'linux', architecture: 'arm64', variant: 'v8' };
  const linux = (architecture: string, variant?: string) =>
    variant ? { os: 'linux', architecture, variant } : { os: 'linux', architecture };

  it('matches as an index entry would: a variant left out is the default one', () => {
    expect(platformMatches(arm64, linux('arm64'))).toBe(true);
    expect(platformMatches(linux('arm64'), arm64)).toBe(true);
    expect(platformMatches(arm64, linux('amd64'))).toBe(false);
    expect(platformMatches(linux('arm', 'v6'), linux('arm'))).toBe(true);
    expect(platformMatches(linux('arm', 'v6'), linux('arm', 'v7'))).toBe(false);
    expect(platformMatches({ os: 'windows', architecture: 'amd64' }, linux('amd64'))).toBe(false);
  });

  it('reads os, architecture and variant from the config; none from one that lacks them', () => {
    const cfg = (o: object) => Buffer.from(JSON.stringify(o));
    expect(platformInConfig(cfg({ os: 'linux', architecture: 'arm64', variant: 'v8', rootfs: {} }))).toEqual(
      arm64,
    );
    expect(platformInConfig(cfg({ os: 'linux', architecture: 'amd64' }))).toEqual(linux('amd64'));
    expect(platformInConfig(cfg({ architecture: 'amd64' }))).toBeUndefined();
    expect(platformInConfig(cfg({}))).toBeUndefined();
    expect(platformInConfig(Buffer.from('not json'))).toBeUndefined();
  });

  it('refuses a platform named explicitly, notes the default one, and passes what matches', () => {
    const s390x = linux('s390x');
    let err: unknown;
    try {
      checkSingleImagePlatform('host/app:1', arm64, s390x, true);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(
      'host/app:1 has no image for linux/s390x: it is a single image for linux/arm64/v8',
    );
    expect(checkSingleImagePlatform('host/app:1', arm64, s390x, false)).toBe(
      'Note: host/app:1 is an image for linux/arm64/v8, not linux/s390x (the default platform); taking it as it is.',
    );
    expect(checkSingleImagePlatform('host/app:1', arm64, linux('arm64'), true)).toBeUndefined();
    expect(checkSingleImagePlatform('host/app:1', undefined, s390x, true)).toBeUndefined();
  });

  it('leaves a config over 4 MiB unchecked and unread, so a transfer streams it as any blob', async () => {
    const image = (size: number) => {
      const doc = {
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: {
          mediaType: 'application/vnd.oci.image.config.v1+json',
          digest: `sha256:${'a'.repeat(64)}`,
          size,
        },
        layers: [],
      };
      const bytes = Buffer.from(JSON.stringify(doc));
      const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      // Reading any blob at all fails the test.
      const source: ImageSource = {
        name: 'h/app:1',
        rereadable: false,
        resolve: async () => ({ mediaType: doc.mediaType, digest, size: bytes.length }),
        getManifest: async () => ({
          digest,
          mediaType: doc.mediaType,
          bytes,
          parsed: parseManifest(bytes, undefined, 'x'),
        }),
        openBlob: async () => {
          throw new Error('unexpected blob read');
        },
        close: async () => undefined,
      };
      return source;
    };
    const sel = await selectImages(image(4 * 1024 * 1024 + 1), {
      kind: 'one',
      platform: linux('s390x'),
      explicit: true,
    });
    expect(sel.config).toBeUndefined();
    expect(sel.images).toHaveLength(1);
    await expect(
      selectImages(image(100), { kind: 'one', platform: linux('s390x'), explicit: true }),
    ).rejects.toThrow('unexpected blob read');
  });
});

describeWithRegistry('--platform and a single-platform image, against a real registry', () => {
  let w: ImageWorld;
  let arm: MadeLayout;
  let R: string;
  let ref: string;

  /** GETs of a blob of team/arm the registry has logged so far (one access-log line each). */
  const blobGets = (digest: string): number =>
    readFileSync(w.registry.logPath, 'utf8')
      .split('\n')
      .filter((l) => l.includes(`"GET /v2/team/arm/blobs/${digest} `)).length;

  beforeAll(async () => {
    w = await startImageWorld();
    R = w.registry.host;
    ref = `${R}/team/arm:1`;
    arm = await makeOciImage(join(w.tmp, 'src'), {
      tag: 'arm',
      layers: 2,
      layerSize: 200 * 1024,
      platforms: ['linux/arm64/v8'],
    });
    const push = await w.run(['--json', 'image', 'push', `oci:${arm.dir}:arm`, ref]);
    expect(push.code).toBe(0);
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('pull --platform the image lacks: exit 5 naming its platform, nothing at the destination', async () => {
    const dir = join(w.tmp, 'refused');
    const file = join(w.tmp, 'refused.tar');
    for (const dest of [`oci:${dir}`, `docker-archive:${file}`]) {
      const r = await w.run(['image', 'pull', '--platform', 'linux/s390x', ref, dest]);
      expect(r.code, dest).toBe(5);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `${ref} has no image for linux/s390x: it is a single image for linux/arm64/v8`,
      );
    }
    const json = await w.run(['--json', 'image', 'pull', '--platform', 'linux/amd64', ref, `oci:${dir}`]);
    expect(json.code).toBe(5);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr).error.code).toBe('NOT_FOUND');
    expect(readdirSync(w.tmp).filter((f) => f.startsWith('refused'))).toEqual([]);
  });

  it('pull --platform it has (variant left out): pulled, the config fetched once', async () => {
    const config = arm.images[0]!.config.digest;
    const before = blobGets(config);
    const dest = join(w.tmp, 'arm-pulled');
    const r = await w.run(['--json', 'image', 'pull', '--platform', 'linux/arm64', ref, `oci:${dest}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.digest).toBe(arm.top.digest);
    expect(out.blobs.map((b: { action: string }) => b.action)).toEqual(['pulled', 'pulled', 'pulled']);
    for (const d of [config, ...arm.images[0]!.layers.map((l) => l.digest)]) {
      expect(readFileSync(join(dest, 'blobs', 'sha256', d.slice(7)))).toEqual(
        readFileSync(join(arm.dir, 'blobs', 'sha256', d.slice(7))),
      );
    }
    expect(blobGets(config) - before).toBe(1);
  });

  it('pull without --platform takes it as it is, with a note on stderr (not with --quiet or --json)', async () => {
    const file = join(w.tmp, 'default.tar');
    const r = await w.run(['image', 'pull', ref, `docker-archive:${file}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${ref}@${arm.top.digest}\n`);
    expect(r.stderr.split('\n')[0]).toBe(
      `Note: ${ref} is an image for linux/arm64/v8, not linux/amd64 (the default platform); taking it as it is.`,
    );
    expect(existsSync(file)).toBe(true);
    for (const flag of ['--quiet', '--json']) {
      const q = await w.run([flag, 'image', 'pull', ref, `oci:${join(w.tmp, `default${flag}`)}`]);
      expect(q.code, flag).toBe(0);
      expect(q.stderr, flag).toBe('');
    }
    // --all-platforms asks for no platform: the single image is taken without a note.
    const all = await w.run(['image', 'pull', '--all-platforms', ref, `oci:${join(w.tmp, 'all')}`]);
    expect(all.code).toBe(0);
    expect(all.stderr).not.toContain('Note:');
  });

  it('inspect --platform checks the single image as well', async () => {
    const no = await w.run(['image', 'inspect', '--platform', 'linux/s390x', ref]);
    expect(no.code).toBe(5);
    expect(no.stdout).toBe('');
    expect(no.stderr).toContain('it is a single image for linux/arm64/v8');
    const raw = await w.run(['image', 'inspect', '--raw', '--platform', 'linux/s390x', ref]);
    expect(raw.code).toBe(5);
    expect(raw.stdout).toBe('');
    const yes = await w.run(['--json', 'image', 'inspect', '--platform', 'linux/arm64/v8', ref]);
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout).config.architecture).toBe('arm64');
  });

  it('copy --platform it lacks writes nothing; one it has copies it, the config read once', async () => {
    const no = await w.run(['image', 'copy', '--platform', 'linux/s390x', ref, `${R}/mirror/arm:no`]);
    expect(no.code).toBe(5);
    expect(no.stderr).toContain('it is a single image for linux/arm64/v8');
    expect((await w.run(['image', 'digest', `${R}/mirror/arm:no`])).code).toBe(5);

    const second = await startRegistry(w.hub.registryAuth);
    try {
      const dst = `${second.host}/copied/arm:1`;
      const env = w.withCredentialsFor([R, second.host]);
      const config = arm.images[0]!.config.digest;
      const before = blobGets(config);
      const yes = await w.run(['--json', 'image', 'copy', '--platform', 'linux/arm64', ref, dst], { env });
      expect(yes.code).toBe(0);
      const out = JSON.parse(yes.stdout);
      expect(out.digest).toBe(arm.top.digest);
      expect(out.blobs.map((b: { action: string }) => b.action)).toEqual(['pushed', 'pushed', 'pushed']);
      // Read once for the check; those bytes are what was uploaded.
      expect(blobGets(config) - before).toBe(1);
      const pulled = join(w.tmp, 'copied');
      const back = await w.run(
        ['--json', 'image', 'pull', '--platform', 'linux/arm64/v8', dst, `oci:${pulled}`],
        { env },
      );
      expect(back.code).toBe(0);
      expect(JSON.parse(back.stdout).digest).toBe(arm.top.digest);
      expect(readFileSync(join(pulled, 'blobs', 'sha256', config.slice(7)))).toEqual(
        readFileSync(join(arm.dir, 'blobs', 'sha256', config.slice(7))),
      );
    } finally {
      await second.stop();
    }
  });
});
