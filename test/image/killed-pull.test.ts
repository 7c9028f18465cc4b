// Downloads that outlive their process (issue 20, item 9): a pull killed with SIGKILL (the real CLI
// in a child process, slowed by a throttling proxy in front of the real registry) leaves its
// partial blob and its lock; the next pull takes the dead run's lock over, continues the blob with
// a Range request, and leaves no partial file behind, in a layout and beside an archive.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type BundledBin, bundleBin } from '../support/bundled-bin.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry } from '../support/registry.js';
import { type ImageWorld, startImageWorld } from './helpers.js';

const MiB = 1024 * 1024;

/** A loopback proxy whose downstream rate can be limited (bytes a second), or not. */
async function startThrottle(targetPort: number) {
  let rate: number | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const up = connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(up);
    const kill = () => {
      client.destroy();
      up.destroy();
    };
    client.on('error', kill);
    up.on('error', kill);
    client.on('close', kill);
    up.on('close', kill);
    client.pipe(up);
    up.on('data', (chunk: Buffer) => {
      client.write(chunk);
      if (rate) {
        up.pause();
        setTimeout(() => up.resume(), (chunk.length / rate) * 1000);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    host: `127.0.0.1:${port}`,
    limit(bytesPerSecond: number | undefined) {
      rate = bytesPerSecond;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Files whose name says they are temporary (partial downloads, temporary archives), in `dir`. */
function leftovers(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => /\.partial|\.tmp-|\.lock/.test(n));
}

describeWithRegistry('a pull killed with SIGKILL', () => {
  let w: ImageWorld;
  let bin: BundledBin;
  let throttle: Awaited<ReturnType<typeof startThrottle>>;
  let env: Record<string, string>;
  let P: string;
  let img: Awaited<ReturnType<typeof makeOciImage>>;

  beforeAll(async () => {
    w = await startImageWorld();
    throttle = await startThrottle(Number(w.registry.host.split(':')[1]));
    P = throttle.host;
    env = w.withCredentialsFor([P]);
    bin = await bundleBin();
    img = await makeOciImage(join(w.tmp, 'src'), { layers: 1, layerSize: 24 * MiB });
    const push = await w.run(['image', 'push', `oci:${img.dir}`, `${P}/killed/pull:1`], { env });
    expect(push.code).toBe(0);
  });
  afterAll(async () => {
    bin?.remove();
    await throttle?.close();
    await w?.stop();
  });

  /** Starts a pull in a child process and kills it once `ready()` says enough reached the disk. */
  async function killMidPull(dest: string, ready: () => boolean): Promise<void> {
    throttle.limit(4 * MiB);
    const child = spawn(process.execPath, [bin.file, 'image', 'pull', `${P}/killed/pull:1`, dest], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let killed = false;
    const deadline = Date.now() + 30_000;
    while (child.exitCode === null && Date.now() < deadline) {
      if (ready()) {
        child.kill('SIGKILL');
        killed = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await exited;
    throttle.limit(undefined);
    expect(killed).toBe(true);
  }

  it('into a layout: the next pull takes over the partial blob and continues it with Range', async () => {
    const dest = join(w.tmp, 'layout');
    const layer = img.images[0]!.layers[0]!;
    const blobs = join(dest, 'blobs', 'sha256');
    const partial = join(blobs, `.${layer.digest.slice(7)}.partial`);
    await killMidPull(`oci:${dest}`, () => existsSync(partial) && statSync(partial).size >= 3 * MiB);
    const kept = statSync(partial).size;
    expect(kept).toBeGreaterThanOrEqual(3 * MiB);
    expect(existsSync(`${partial}.lock`)).toBe(true); // the dead run's claim

    const again = await w.run(['--debug', 'image', 'pull', `${P}/killed/pull:1`, `oci:${dest}`], { env });
    expect(again.code).toBe(0);
    const range = /> range: bytes=(\d+)-/.exec(again.stderr);
    expect(range).not.toBeNull();
    // Continued from what the dead run had written (more may have reached the disk after the check).
    expect(Number(range![1])).toBeGreaterThanOrEqual(kept);
    expect(statSync(join(blobs, layer.digest.slice(7))).size).toBe(layer.size);
    expect(leftovers(blobs)).toEqual([]);
    expect(leftovers(dest)).toEqual([]);
  });

  it('into an archive: the dead run’s temporary file is removed by the next completed pull', async () => {
    const folder = join(w.tmp, 'archives');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder);
    const archive = join(folder, 'app.tar');
    const temporary = () => readdirSync(folder).filter((n) => n.endsWith('.partial'));
    await killMidPull(`docker-archive:${archive}`, () => {
      const t = temporary()[0];
      return t !== undefined && statSync(join(folder, t)).size >= 3 * MiB;
    });
    expect(temporary()).toHaveLength(1);

    const again = await w.run(['image', 'pull', `${P}/killed/pull:1`, `docker-archive:${archive}`], { env });
    expect(again.code).toBe(0);
    expect(existsSync(archive)).toBe(true);
    expect(leftovers(folder)).toEqual([]);
  });
});
