// Interop for every transport, both ways, with skopeo and podman as independent witnesses: what
// hubctl writes to oci:, oci-archive: and docker-archive: (docker v2 images included) they read;
// what they write hubctl reads and pushes with the digests they report.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithTools, skopeoPullArgs } from '../support/tools.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const exec = promisify(execFile);
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const CREDS = 'alice:alice-password';
/** podman names an oci: image after its path, which must be lowercase (mkdtemp's are not). */
const lowerTmp = join(tmpdir(), `hubctl-interop-${randomBytes(6).toString('hex')}`);

const skopeo = async (...args: string[]) => (await exec('skopeo', args, { maxBuffer: 64 << 20 })).stdout;

describeWithTools(
  ['docker-registry', 'skopeo', 'podman'],
  'interop with skopeo and podman, every transport',
  () => {
    let w: ImageWorld;
    let R: string;
    let podman: (...args: string[]) => Promise<string>;
    let docker: { ref: string; digest: string; config: string };

    beforeAll(async () => {
      w = await startImageWorld();
      R = w.registry.host;
      const root = join(w.tmp, 'podman');
      mkdirSync(root, { recursive: true });
      mkdirSync(lowerTmp, { recursive: true });
      podman = async (...args: string[]) =>
        (
          await exec(
            'podman',
            [
              '--root',
              join(root, 'root'),
              '--runroot',
              join(root, 'run'),
              '--storage-driver',
              'vfs',
              '--cgroup-manager',
              'cgroupfs',
              '--events-backend',
              'file',
              ...args,
            ],
            { maxBuffer: 64 << 20, env: { ...process.env, TMPDIR: w.tmp } },
          )
        ).stdout;
      // A docker v2 schema 2 image in the registry: the case skopeo could not read from hubctl's oci:.
      const img = await makeOciImage(join(w.tmp, 'docker-src'), {
        layers: 2,
        layerSize: 64 * 1024,
        docker: true,
      });
      const push = await w.run(['--json', 'image', 'push', `oci:${img.dir}`, `${R}/interop/docker:1`]);
      expect(push.code).toBe(0);
      docker = {
        ref: `${R}/interop/docker:1`,
        digest: JSON.parse(push.stdout).digest,
        config: img.images[0]!.config.digest,
      };
    });
    afterAll(async () => {
      rmSync(lowerTmp, { recursive: true, force: true });
      await w?.stop();
    });

    it('oci: a docker image pulled by hubctl is read by skopeo and podman (converted to OCI, same config)', async () => {
      const dir = join(lowerTmp, 'to-oci');
      const r = await w.run(['--json', 'image', 'pull', docker.ref, `oci:${dir}:v1`]);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.convertedFrom).toBe(docker.digest);
      const raw = await skopeo('inspect', '--raw', `oci:${dir}:v1`);
      expect(sha256(raw)).toBe(out.digest);
      expect(JSON.parse(raw).config.digest).toBe(docker.config);
      const id = (await podman('pull', '-q', `oci:${dir}:v1`)).trim();
      // podman's image id is the config's digest.
      expect(`sha256:${id}`).toBe(docker.config);
    });

    it('oci-archive: hubctl writes what skopeo copies and podman loads; hubctl reads what skopeo writes', async () => {
      const file = join(w.tmp, 'hubctl-oci.tar');
      const r = await w.run(['--json', 'image', 'copy', docker.ref, `oci-archive:${file}:v1`]);
      expect(r.code).toBe(0);
      const digest = JSON.parse(r.stdout).digest;
      expect(sha256(await skopeo('inspect', '--raw', `oci-archive:${file}:v1`))).toBe(digest);
      await skopeo(
        'copy',
        '-q',
        '--dest-tls-verify=false',
        '--dest-creds',
        CREDS,
        `oci-archive:${file}:v1`,
        `docker://${R}/interop/from-oci-archive:1`,
      );
      const back = await w.run(['image', 'digest', `${R}/interop/from-oci-archive:1`]);
      expect(back.stdout.trim()).toBe(digest);
      expect(await podman('load', '-q', '-i', file)).toMatch(/Loaded image/);

      const theirs = join(w.tmp, 'skopeo-oci.tar');
      await skopeo(...skopeoPullArgs(`${docker.ref}`, `oci-archive:${theirs}:x`));
      const want = sha256(await skopeo('inspect', '--raw', `oci-archive:${theirs}:x`));
      const push = await w.run([
        '--json',
        'image',
        'copy',
        `oci-archive:${theirs}:x`,
        `docker://${R}/interop/skopeo-oci-archive:1`,
      ]);
      expect(push.code).toBe(0);
      expect(JSON.parse(push.stdout).digest).toBe(want);
    });

    it('docker-archive: podman loads what hubctl writes; hubctl picks an image out of what podman saves', async () => {
      const file = join(w.tmp, 'hubctl-docker.tar');
      const r = await w.run(['image', 'copy', docker.ref, `docker-archive:${file}:team/app:7`]);
      expect(r.code).toBe(0);
      expect(await podman('load', '-i', file)).toMatch(/team\/app:7/);
      const info = JSON.parse(await skopeo('inspect', `docker-archive:${file}`));
      expect(info.Layers).toHaveLength(2);

      // Two images in one archive, written by podman; hubctl takes the one named.
      const other = await makeOciImage(join(lowerTmp, 'other'), { layers: 1, layerSize: 4096 });
      const id = (await podman('pull', '-q', `oci:${other.dir}:${other.tag}`)).trim();
      await podman('tag', id, 'localhost/other:2');
      const multi = join(w.tmp, 'podman-multi.tar');
      await podman(
        'save',
        '-q',
        '-m',
        '--format',
        'docker-archive',
        '-o',
        multi,
        'team/app:7',
        'localhost/other:2',
      );
      const picked = await w.run([
        '--json',
        'image',
        'copy',
        `docker-archive:${multi}:localhost/other:2`,
        `${R}/interop/picked:2`,
      ]);
      expect(picked.code).toBe(0);
      const check = JSON.parse(
        await skopeo('inspect', '--tls-verify=false', '--creds', CREDS, `docker://${R}/interop/picked:2`),
      );
      expect(check.Digest).toBe(JSON.parse(picked.stdout).digest);
      expect(
        JSON.parse(
          await skopeo(
            'inspect',
            '--config',
            '--tls-verify=false',
            '--creds',
            CREDS,
            `docker://${R}/interop/picked:2`,
          ),
        ).os,
      ).toBe('linux');
      const none = await w.run(['image', 'copy', `docker-archive:${multi}`, `${R}/interop/picked:3`]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/holds 2 images: name one with docker-archive:/);
    });

    it('skopeo copy both ways through oci: with the digests it reports', async () => {
      const dir = join(w.tmp, 'skopeo-oci');
      await skopeo(...skopeoPullArgs(`${docker.ref}`, `oci:${dir}:s`));
      const want = sha256(await skopeo('inspect', '--raw', `oci:${dir}:s`));
      const r = await w.run(['--json', 'image', 'push', `oci:${dir}:s`, `${R}/interop/skopeo-oci:1`]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).digest).toBe(want);
    });
  },
);
