// OCI referrers end to end: `image attach`, `image referrers`, and `--referrers` on copy, pull and
// push, against Debian's distribution 2.8 (no referrers API: the fallback tag `sha256-<hex>`) and
// the referrers test double in front of another repository of it (the API). skopeo, an
// independent client, is the witness: the referrer manifests it reads keep their digests and
// their `subject`, and it still copies the subject.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeOciImage } from '../support/oci-images.js';
import { type ReferrersRegistry, startReferrersRegistry } from '../support/referrers-registry.js';
import { describeWithTools, SKOPEO_CREDS } from '../support/tools.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const exec = promisify(execFile);
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const skopeo = async (...args: string[]) =>
  (await exec('skopeo', args, { maxBuffer: 16 * 1024 * 1024 })).stdout;
const rawOf = (ref: string) =>
  skopeo('inspect', '--raw', '--tls-verify=false', '--creds', SKOPEO_CREDS, `docker://${ref}`);

const SBOM = 'application/spdx+json';
const SIG = 'application/vnd.dev.sigstore.bundle.v0.3+json';

describeWithTools(['docker-registry', 'skopeo'], 'referrers', () => {
  let w: ImageWorld;
  let api: ReferrersRegistry;
  let R: string;
  let A: string;
  let env: Record<string, string>;
  let subject: string;
  let sbom: string;
  let sig: string;
  const run = (argv: string[]) => w.run(argv, { env });

  beforeAll(async () => {
    w = await startImageWorld();
    api = await startReferrersRegistry(w.registry.url, { pageSize: 1 });
    R = w.registry.host;
    A = api.host;
    env = w.withCredentialsFor([R, A]);
    const img = await makeOciImage(join(w.tmp, 'src'), { tag: '1', layers: 1, layerSize: 4096 });
    const push = await run(['--json', 'image', 'push', `oci:${img.dir}:1`, `${R}/app/base:1`]);
    expect(push.code, push.stderr).toBe(0);
    subject = JSON.parse(push.stdout).digest;
    writeFileSync(join(w.tmp, 'sbom.spdx.json'), JSON.stringify({ spdxVersion: 'SPDX-2.3', name: 'base' }));
    writeFileSync(join(w.tmp, 'sig.json'), JSON.stringify({ signature: 'abc' }));
  });
  afterAll(async () => {
    await api?.close();
    await w?.stop();
  });

  it('attach pushes an artifact whose subject is the image, listed by the fallback tag without the API', async () => {
    const r = await run([
      '--json',
      '--debug',
      'image',
      'attach',
      `${R}/app/base:1`,
      '--artifact-type',
      SBOM,
      join(w.tmp, 'sbom.spdx.json'),
      '--annotation',
      'org.example.tool=syft',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ artifactType: SBOM, subject, via: 'tag' });
    sbom = out.digest;
    expect(r.stderr).toContain('fallback tag');
    // The fallback tag is an OCI index naming the SBOM, as the distribution spec writes it.
    const tag = `sha256-${subject.slice(7)}`;
    const index = JSON.parse(await rawOf(`${R}/app/base:${tag}`));
    expect(index.mediaType).toBe('application/vnd.oci.image.index.v1+json');
    expect(index.manifests).toEqual([
      expect.objectContaining({
        digest: sbom,
        artifactType: SBOM,
        annotations: { 'org.example.tool': 'syft' },
      }),
    ]);
    // The manifest as skopeo reads it: its own digest, the subject, the file as a titled layer.
    const raw = await rawOf(`${R}/app/base@${sbom}`);
    expect(sha256(raw)).toBe(sbom);
    const m = JSON.parse(raw);
    expect(m.subject.digest).toBe(subject);
    expect(m.artifactType).toBe(SBOM);
    expect(m.layers[0].annotations['org.opencontainers.image.title']).toBe('sbom.spdx.json');
  });

  it('a signature of the SBOM is a referrer of the SBOM; the same attach again adds nothing', async () => {
    const args = [
      '--json',
      'image',
      'attach',
      `${R}/app/base@${sbom}`,
      '--artifact-type',
      SIG,
      join(w.tmp, 'sig.json'),
    ];
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    sig = JSON.parse(r.stdout).digest;
    const again = await run(args);
    expect(JSON.parse(again.stdout).digest).toBe(sig);
    const list = JSON.parse((await run(['--json', 'image', 'referrers', `${R}/app/base@${sbom}`])).stdout);
    expect(list.referrers.map((x: { digest: string }) => x.digest)).toEqual([sig]);
  });

  it('referrers lists them, filtered by artifact type, and --debug says the fallback tag was read', async () => {
    const r = await run(['--json', '--debug', 'image', 'referrers', `${R}/app/base:1`]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      subject,
      via: 'tag',
      referrers: [
        {
          digest: sbom,
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          artifactType: SBOM,
          size: expect.any(Number),
          annotations: { 'org.example.tool': 'syft' },
        },
      ],
    });
    expect(r.stderr).toMatch(/\[debug\] referrers of sha256:[a-f0-9]{64}: the fallback tag/);
    const none = await run(['--json', 'image', 'referrers', `${R}/app/base:1`, '--artifact-type', SIG]);
    expect(JSON.parse(none.stdout).referrers).toEqual([]);
    const text = await run(['image', 'referrers', `${R}/app/base:1`]);
    expect(text.stdout).toBe(
      `${sbom}\t${SBOM}\t${JSON.parse(r.stdout).referrers[0].size}\torg.example.tool=syft\n`,
    );
  });

  it('copy --referrers to a registry with the referrers API carries them recursively, digests kept', async () => {
    const r = await run([
      '--json',
      '--debug',
      'image',
      'copy',
      '--referrers',
      `${R}/app/base:1`,
      `${A}/mirror/base:1`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.digest).toBe(subject);
    expect(out.referrers).toEqual([
      { digest: sbom, subject, artifactType: SBOM, via: 'api' },
      { digest: sig, subject: sbom, artifactType: SIG, via: 'api' },
    ]);
    // The destination indexed them itself: no fallback tag was written there.
    expect(api.seen.some((s) => s.method === 'PUT' && s.path.includes('/manifests/sha256-'))).toBe(false);
    const listed = await run(['--json', '--debug', 'image', 'referrers', `${A}/mirror/base:1`]);
    expect(JSON.parse(listed.stdout)).toMatchObject({ via: 'api', referrers: [{ digest: sbom }] });
    expect(listed.stderr).toContain('the referrers API');
    const filtered = await run([
      '--json',
      'image',
      'referrers',
      `${A}/mirror/base@${sbom}`,
      '--artifact-type',
      SIG,
    ]);
    expect(JSON.parse(filtered.stdout).referrers.map((x: { digest: string }) => x.digest)).toEqual([sig]);
    // skopeo: the referrer manifests keep their digests and subject; the subject still copies.
    const raw = await rawOf(`${A}/mirror/base@${sig}`);
    expect(sha256(raw)).toBe(sig);
    expect(JSON.parse(raw).subject.digest).toBe(sbom);
    const dir = join(w.tmp, 'skopeo-out');
    mkdirSync(dir);
    await skopeo(
      'copy',
      '-q',
      '--src-tls-verify=false',
      '--src-creds',
      SKOPEO_CREDS,
      `docker://${A}/mirror/base:1`,
      `oci:${dir}:x`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')).manifests[0].digest).toBe(subject);
  });

  it('the API answers in pages (Link) and they are all read', async () => {
    // pageSize is 1: the SBOM and a second artifact come on two pages.
    writeFileSync(join(w.tmp, 'scan.json'), '{"ok":true}');
    const a = await run([
      'image',
      'attach',
      `${A}/mirror/base:1`,
      '--artifact-type',
      'application/sarif+json',
      join(w.tmp, 'scan.json'),
    ]);
    expect(a.code, a.stderr).toBe(0);
    const list = JSON.parse((await run(['--json', 'image', 'referrers', `${A}/mirror/base:1`])).stdout);
    expect(list.referrers.map((x: { artifactType: string }) => x.artifactType)).toEqual([
      SBOM,
      'application/sarif+json',
    ]);
    expect(
      api.seen.filter((s) => s.path.includes('/referrers/') && s.path.includes('page=1')).length,
    ).toBeGreaterThan(0);
  });

  it('copy --referrers from the API to a registry without it writes the fallback tag, and a re-run adds no duplicate', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await run([
        '--json',
        'image',
        'copy',
        '--referrers',
        `${A}/mirror/base:1`,
        `${R}/back/base:1`,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).referrers.every((x: { via: string }) => x.via === 'tag')).toBe(true);
    }
    const index = JSON.parse(await rawOf(`${R}/back/base:sha256-${subject.slice(7)}`));
    expect(index.manifests.map((d: { artifactType: string }) => d.artifactType).sort()).toEqual(
      ['application/sarif+json', SBOM].sort(),
    );
    const sigIndex = JSON.parse(await rawOf(`${R}/back/base:sha256-${sbom.slice(7)}`));
    expect(sigIndex.manifests.map((d: { digest: string }) => d.digest)).toEqual([sig]);
  });

  it('pull --referrers into an OCI layout and push --referrers out of it keep them all', async () => {
    const dir = join(w.tmp, 'layout');
    const pull = await run(['--json', 'image', 'pull', '--referrers', `${R}/app/base:1`, `oci:${dir}:1`]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(JSON.parse(pull.stdout).referrers.map((x: { digest: string }) => x.digest)).toEqual([sbom, sig]);
    // The layout lists them under the fallback tags, which skopeo reads as ordinary tags.
    const local = JSON.parse((await run(['--json', 'image', 'referrers', `oci:${dir}:1`])).stdout);
    expect(local).toMatchObject({ subject, via: 'tag', referrers: [{ digest: sbom, artifactType: SBOM }] });
    const viaSkopeo = JSON.parse(await skopeo('inspect', '--raw', `oci:${dir}:sha256-${sbom.slice(7)}`));
    expect(viaSkopeo.manifests[0].digest).toBe(sig);
    const push = await run(['--json', 'image', 'push', '--referrers', `oci:${dir}:1`, `${A}/fromoci/base:1`]);
    expect(push.code, push.stderr).toBe(0);
    expect(JSON.parse(push.stdout).referrers).toHaveLength(2);
    const list = JSON.parse(
      (await run(['--json', 'image', 'referrers', `${A}/fromoci/base@${sbom}`])).stdout,
    );
    expect(list).toMatchObject({ via: 'api', referrers: [{ digest: sig }] });
    const raw = await rawOf(`${A}/fromoci/base@${sbom}`);
    expect(sha256(raw)).toBe(sbom);
    expect(JSON.parse(raw).subject.digest).toBe(subject);
  });

  it('attach into an OCI layout, and the usage errors say what to do', async () => {
    const dir = join(w.tmp, 'layout');
    const r = await run([
      '--json',
      'image',
      'attach',
      `oci:${dir}:1`,
      '--artifact-type',
      'text/plain',
      join(w.tmp, 'scan.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ via: 'tag', subject });
    const list = JSON.parse((await run(['--json', 'image', 'referrers', `oci:${dir}:1`])).stdout);
    expect(list.referrers.map((x: { artifactType: string }) => x.artifactType)).toEqual([SBOM, 'text/plain']);

    const archive = await run([
      'image',
      'copy',
      '--referrers',
      `${R}/app/base:1`,
      `docker-archive:${w.tmp}/x.tar`,
    ]);
    expect(archive.code).toBe(2);
    expect(archive.stderr).toMatch(/^hubctl: --referrers: docker-archive:.* cannot hold referrers/);
    const noType = await run(['image', 'attach', `${R}/app/base:1`, join(w.tmp, 'scan.json')]);
    expect(noType.code).toBe(2);
    const badType = await run(['image', 'attach', `${R}/app/base:1`, '--artifact-type', 'not a type', 'x']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('--artifact-type must be a media type');
    const missing = await run([
      'image',
      'attach',
      `${R}/app/base:1`,
      '--artifact-type',
      'text/plain',
      join(w.tmp, 'nope'),
    ]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('cannot be read');
  });
});
