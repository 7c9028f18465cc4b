// Uploads that outlive their process: a push killed mid-upload (SIGKILL, the real CLI in a child
// process) leaves its upload URL and offset under the state directory, and the next push uses
// them; a push interrupted with Ctrl-C cancels its open uploads (DELETE) and forgets them.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const MiB = 1024 * 1024;
const repoRoot = join(import.meta.dirname, '..', '..');

function uploadsDir(env: Record<string, string>): string {
  return join(env.HUBCTL_CONFIG_DIR!, 'state', 'uploads');
}

function savedUploads(
  env: Record<string, string>,
): Array<{ location: string; offset: number; digest: string }> {
  const dir = uploadsDir(env);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      try {
        return [JSON.parse(readFileSync(join(dir, f), 'utf8'))];
      } catch {
        return [];
      }
    });
}

describeWithRegistry('uploads across interruptions', () => {
  let w: ImageWorld;
  let binDir: string;

  beforeAll(async () => {
    w = await startImageWorld();
    // The real CLI, bundled as scripts/build.mjs does, where node_modules resolves.
    binDir = join(repoRoot, 'node_modules', '.cache', `hubctl-test-${randomBytes(4).toString('hex')}`);
    await build({
      stdin: {
        contents:
          "import { main, realDeps } from './src/cli.ts'; process.exitCode = await main(process.argv.slice(2), realDeps());",
        resolveDir: repoRoot,
        loader: 'ts',
      },
      outfile: join(binDir, 'hubctl.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      packages: 'external',
      logLevel: 'error',
    });
  });
  afterAll(async () => {
    if (binDir) rmSync(binDir, { recursive: true, force: true });
    await w?.stop();
  });

  it('a push killed mid-upload is finished by the next push, using the saved upload', async () => {
    const R = w.registry.host;
    const img = await makeOciImage(join(w.tmp, 'killed'), { layers: 1, layerSize: 40 * MiB });
    const env = {
      ...w.withCredentialsFor([R]),
      HUBCTL_MONOLITHIC_MAX: String(MiB),
      HUBCTL_CHUNK_SIZE: String(MiB),
    };
    const child = spawn(
      process.execPath,
      [join(binDir, 'hubctl.mjs'), 'image', 'push', `oci:${img.dir}`, `${R}/killed/app:1`],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let killedAt = -1;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    while (child.exitCode === null) {
      const saved = savedUploads(env);
      if (saved.some((s) => s.offset >= 3 * MiB)) {
        child.kill('SIGKILL');
        killedAt = Math.max(...saved.map((s) => s.offset));
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await exited;
    expect(killedAt).toBeGreaterThanOrEqual(3 * MiB);
    expect(savedUploads(env)).toHaveLength(1);

    const again = await w.run(['--json', '--debug', 'image', 'push', `oci:${img.dir}`, `${R}/killed/app:1`], {
      env,
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).digest).toBe(img.top.digest);
    // The saved upload was asked about: continued when the registry still had it at that offset,
    // else (distribution drops uploads whose last PATCH was cut) started again.
    expect(again.stderr).toMatch(
      /continuing the upload of sha256:[0-9a-f]{64} left by an earlier run at byte \d+|the registry no longer has the earlier upload/,
    );
    expect(savedUploads(env)).toEqual([]);
    const back = await w.run(['image', 'pull', `${R}/killed/app:1`, `oci:${join(w.tmp, 'killed-back')}`], {
      env,
    });
    expect(back.code).toBe(0);
  });

  it('Ctrl-C cancels the open uploads with DELETE and forgets them', async () => {
    const R = w.registry.host;
    const img = await makeOciImage(join(w.tmp, 'ctrlc'), { layers: 1, layerSize: 40 * MiB });
    const env = {
      ...w.withCredentialsFor([R]),
      HUBCTL_MONOLITHIC_MAX: String(MiB),
      HUBCTL_CHUNK_SIZE: String(MiB),
    };
    const controller = new AbortController();
    let location: string | undefined;
    const watcher = (async () => {
      while (!controller.signal.aborted) {
        const saved = savedUploads(env).find((s) => s.offset >= 2 * MiB);
        if (saved) {
          location = saved.location;
          controller.abort(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
          return;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const r = await w.run(['--debug', 'image', 'push', `oci:${img.dir}`, `${R}/ctrlc/app:1`], {
      env,
      signal: controller.signal,
    });
    controller.abort();
    await watcher;
    expect(location).toBeDefined();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('> DELETE http://127.0.0.1');
    // 204 when the abort fell between two PATCHes; 404 when it cut one (distribution then drops
    // the upload itself). (The registry's own handler of the cut PATCH may still be running and
    // write after the DELETE; that is inside the registry and not checked here.)
    expect(r.stderr).toMatch(/< (204|404) http:\/\/127\.0\.0\.1:\d+\/v2\/ctrlc\/app\/blobs\/uploads\//);
    expect(savedUploads(env)).toEqual([]);
    // Nothing was pushed.
    const d = await w.run(['image', 'digest', `${R}/ctrlc/app:1`], { env });
    expect(d.code).toBe(5);
  });
});
