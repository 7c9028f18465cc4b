// The image verbs end to end, in process, against a real registry (distribution 2.8) whose token
// service is the hub emulator.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blobDigests, type MadeLayout, makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const sha256File = (p: string) => `sha256:${createHash('sha256').update(readFileSync(p)).digest('hex')}`;

describeWithRegistry('image commands against a real registry', () => {
  let w: ImageWorld;
  let single: MadeLayout;
  let multi: MadeLayout;
  let R: string;

  beforeAll(async () => {
    w = await startImageWorld();
    R = w.registry.host;
    single = await makeOciImage(join(w.tmp, 'src'), { tag: 'v1', layers: 2, layerSize: 300 * 1024 });
    multi = await makeOciImage(join(w.tmp, 'src'), {
      tag: 'multi',
      layers: 1,
      layerSize: 100 * 1024,
      platforms: ['linux/amd64', 'linux/arm64/v8'],
    });
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('pushes an OCI layout: blobs pushed, then skipped on a second push, same digest', async () => {
    const first = await w.run(['--json', 'image', 'push', `oci:${single.dir}:v1`, `${R}/team/app:v1`]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out.reference).toBe(`${R}/team/app:v1`);
    expect(out.digest).toBe(single.top.digest);
    expect(out.blobs.map((b: { action: string }) => b.action).sort()).toEqual(['pushed', 'pushed', 'pushed']);
    expect(out.blobs.map((b: { digest: string }) => b.digest).sort()).toEqual(blobDigests(single).sort());

    const again = await w.run(['--json', 'image', 'push', `oci:${single.dir}:v1`, `${R}/team/app:v1`]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).blobs.every((b: { action: string }) => b.action === 'skipped')).toBe(
      true,
    );
  });

  it('off a terminal, prints one stderr line per blob and reference@digest on stdout', async () => {
    const r = await w.run(['image', 'push', `oci:${single.dir}:v1`, `${R}/team/app:v1b`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${R}/team/app:v1b@${single.top.digest}\n`);
    const lines = r.stderr.trim().split('\n');
    expect(lines.filter((l) => /^skipped [0-9a-f]{12} /.test(l))).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/^Pushed .* \(3 blobs: 3 skipped\)$/);
    const quiet = await w.run(['--quiet', 'image', 'push', `oci:${single.dir}:v1`, `${R}/team/app:v1b`]);
    expect(quiet.stderr).toBe('');
  });

  it('on a terminal, draws progress bars on stderr and keeps stdout to the result', async () => {
    const r = await w.run(['image', 'pull', `${R}/team/app:v1`, `oci:${join(w.tmp, 'tty-pull')}`], {
      tty: true,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${R}/team/app:v1@${single.top.digest}\n`);
    expect(r.stderr).toMatch(/total\s+[█░]+ +\d+%/);
    expect(r.stderr).toContain('\x1b[');
    expect(r.stderr).toMatch(/pulled/);
  });

  it('mounts a blob from another repository of the same registry it knows', async () => {
    const r = await w.run(['--json', 'image', 'push', `oci:${single.dir}:v1`, `${R}/other/app:v1`]);
    expect(r.code).toBe(0);
    // The state dir remembers team/app holds them: all three are mounted, none uploaded.
    expect(JSON.parse(r.stdout).blobs.map((b: { action: string }) => b.action)).toEqual([
      'mounted',
      'mounted',
      'mounted',
    ]);
  });

  it('digest and inspect', async () => {
    const d = await w.run(['image', 'digest', `${R}/team/app:v1`]);
    expect(d).toEqual({ code: 0, stdout: `${single.top.digest}\n`, stderr: '' });
    const i = await w.run(['--json', 'image', 'inspect', `${R}/team/app:v1`]);
    expect(i.code).toBe(0);
    const info = JSON.parse(i.stdout);
    expect(info.digest).toBe(single.top.digest);
    expect(info.mediaType).toBe('application/vnd.oci.image.manifest.v1+json');
    expect(info.manifest.layers).toHaveLength(2);
    expect(info.config.architecture).toBe('amd64');
    const raw = await w.run(['image', 'inspect', '--raw', `${R}/team/app:v1`]);
    expect(createHash('sha256').update(raw.stdout.trimEnd()).digest('hex')).toBe(single.top.digest.slice(7));
  });

  it('pushes a multi-arch index; inspect lists platforms; pull picks one or all', async () => {
    const p = await w.run(['--json', 'image', 'push', `oci:${multi.dir}:multi`, `${R}/team/multi:1`]);
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout).digest).toBe(multi.top.digest);
    const i = await w.run(['--json', 'image', 'inspect', `${R}/team/multi:1`]);
    expect(JSON.parse(i.stdout).platforms).toEqual(['linux/amd64', 'linux/arm64/v8']);
    const arm = await w.run(['--json', 'image', 'inspect', '--platform', 'linux/arm64', `${R}/team/multi:1`]);
    expect(JSON.parse(arm.stdout).digest).toBe(multi.images[1]!.manifest.digest);

    const dest = join(w.tmp, 'pulled-arm');
    const pull = await w.run([
      '--json',
      'image',
      'pull',
      '--platform',
      'linux/arm64',
      `${R}/team/multi:1`,
      `oci:${dest}:x`,
    ]);
    expect(pull.code).toBe(0);
    expect(JSON.parse(pull.stdout).digest).toBe(multi.images[1]!.manifest.digest);
    const index = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8'));
    expect(index.manifests[0].digest).toBe(multi.images[1]!.manifest.digest);
    expect(index.manifests[0].annotations['org.opencontainers.image.ref.name']).toBe('x');
    for (const l of multi.images[1]!.layers)
      expect(sha256File(join(dest, 'blobs', 'sha256', l.digest.slice(7)))).toBe(l.digest);

    const all = join(w.tmp, 'pulled-all');
    const pullAll = await w.run([
      '--json',
      'image',
      'pull',
      '--all-platforms',
      `${R}/team/multi:1`,
      `oci:${all}`,
    ]);
    expect(pullAll.code).toBe(0);
    expect(JSON.parse(pullAll.stdout).digest).toBe(multi.top.digest);
    const files = readdirSync(join(all, 'blobs', 'sha256'));
    for (const d of [
      ...blobDigests(multi),
      multi.top.digest,
      ...multi.images.map((im) => im.manifest.digest),
    ]) {
      expect(files).toContain(d.slice(7));
    }
    expect(files.some((f) => f.includes('partial'))).toBe(false);
  });

  it('pulls into a docker archive and pushes it back with the same digest', async () => {
    const file = join(w.tmp, 'app.tar');
    const pull = await w.run(['--json', 'image', 'pull', `${R}/team/app:v1`, `docker-archive:${file}`]);
    expect(pull.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.hubctl-partial.d`)).toBe(false);
    const push = await w.run(['--json', 'image', 'push', `docker-archive:${file}`, `${R}/team/fromtar:1`]);
    expect(push.code).toBe(0);
    expect(JSON.parse(push.stdout).digest).toBe(single.top.digest);
  });

  it('copies within the registry by mounting, and the index with --all-platforms', async () => {
    const c = await w.run([
      '--json',
      'image',
      'copy',
      '--all-platforms',
      `${R}/team/multi:1`,
      `${R}/mirror/multi:1`,
    ]);
    expect(c.code).toBe(0);
    const out = JSON.parse(c.stdout);
    expect(out.digest).toBe(multi.top.digest);
    expect(out.blobs.every((b: { action: string }) => b.action === 'mounted')).toBe(true);
    const d = await w.run(['image', 'digest', `${R}/mirror/multi:1`]);
    expect(d.stdout.trim()).toBe(multi.top.digest);
  });

  it('lists tags', async () => {
    await w.run(['image', 'push', `oci:${single.dir}:v1`, `${R}/team/app:v2`]);
    const t = await w.run(['--json', 'image', 'tags', `${R}/team/app`]);
    expect(t.code).toBe(0);
    expect(JSON.parse(t.stdout).sort()).toEqual(['v1', 'v1b', 'v2']);
    const plain = await w.run(['image', 'tags', `${R}/team/app`]);
    expect(plain.stdout.trim().split('\n').sort()).toEqual(['v1', 'v1b', 'v2']);
  });

  it('delete: lists the tags that go too; --dry-run deletes nothing; --yes deletes by digest', async () => {
    const dry = await w.run(['--json', 'image', 'delete', '--dry-run', `${R}/team/app:v1`]);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      reference: `${R}/team/app:v1`,
      digest: single.top.digest,
      tags: ['v1', 'v1b', 'v2'],
      deleted: false,
    });
    const refused = await w.run(['image', 'delete', `${R}/team/app:v1`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const del = await w.run(['--yes', 'image', 'delete', `${R}/team/app:v1`]);
    expect(del.code).toBe(0);
    expect(del.stderr).toContain(`Deleted ${R}/team/app@${single.top.digest} (tags: v1, v1b, v2)`);
    const gone = await w.run(['image', 'digest', `${R}/team/app:v2`]);
    expect(gone.code).toBe(5);
  });

  it('uses the credential stored by `auth login <registry-host>`', async () => {
    const env = { ...w.anonEnv, HUBCTL_CONFIG_DIR: join(w.tmp, 'login-config') };
    const denied = await w.run(['image', 'push', `oci:${single.dir}:v1`, `${R}/login/app:1`], { env });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toContain(`hubctl auth login ${R}`);
    const login = await w.run(['auth', 'login', R, '--username', 'alice', '--password-stdin'], {
      env,
      stdin: 'alice-password',
    });
    expect(login.code).toBe(0);
    const push = await w.run(['--json', 'image', 'push', `oci:${single.dir}:v1`, `${R}/login/app:1`], {
      env,
    });
    expect(push.code).toBe(0);
    expect(JSON.parse(push.stdout).digest).toBe(single.top.digest);
  });

  it('bad references and anonymous pushes fail with the right exit codes', async () => {
    const bad = await w.run(['image', 'inspect', `${R}/Team/app:1`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/must be lowercase/);
    const anon = await w.run(['image', 'push', `oci:${single.dir}:v1`, `${R}/anon/app:1`], {
      env: w.anonEnv,
    });
    expect(anon.code).toBe(4);
    const missing = await w.run(['image', 'inspect', `${R}/team/nothing:1`]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/MANIFEST_UNKNOWN|NAME_UNKNOWN/);
  });
});
