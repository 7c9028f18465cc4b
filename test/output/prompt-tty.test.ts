// Prompts and progress as a person at a terminal sees them: the real bin runs inside tmux (a real
// pseudo-terminal, 100 columns), keys are typed with send-keys, and the screen is read back with
// capture-pane — what is drawn, after every escape sequence did its work.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { makeOciImage } from '../support/oci-images.js';
import { registryAvailable, startRegistry } from '../support/registry.js';
import { ensureBuilt } from '../support/run-bin.js';
import { runCli } from '../support/run-cli.js';
import { describeWithTools } from '../support/tools.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'hubctl-tty-'));
const SOCKET = join(dir, 'tmux.sock');
let hub: HubEmulator;
let env: Record<string, string>;

const tmux = (...args: string[]) => spawnSync('tmux', ['-S', SOCKET, ...args], { encoding: 'utf8' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The screen as drawn, trailing blank lines dropped. */
function screen(): string {
  return tmux('capture-pane', '-p', '-t', 'hubctl').stdout.replace(/\n+$/, '');
}

/** Waits (asynchronously: the emulator in this process must answer) until the screen shows `text`. */
async function waitFor(text: string | RegExp, ms = 15_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const s = screen();
    if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
    if (Date.now() > until) throw new Error(`screen never showed ${String(text)}:\n${s}`);
    await sleep(100);
  }
}

/** Starts `hubctl ARGS` in a terminal (100×24 unless said), in the test's environment; the pane stays after it exits. */
function start(
  args: string[],
  size: [number, number] = [100, 24],
  extraEnv: Record<string, string> = {},
): void {
  const script = join(dir, 'run.sh');
  const exports = Object.entries({ ...env, ...extraEnv })
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n');
  writeFileSync(
    script,
    `${exports}\nclear\n"${process.execPath}" "${join(ROOT, 'bin/hubctl.js')}" ${args.map((a) => `'${a}'`).join(' ')}\necho "[exit $?]"\nsleep 60\n`,
  );
  tmux('kill-session', '-t', 'hubctl');
  const r = tmux(
    'new-session',
    '-d',
    '-s',
    'hubctl',
    '-x',
    String(size[0]),
    '-y',
    String(size[1]),
    `sh ${script}`,
  );
  expect(r.status, r.stderr).toBe(0);
}

describeWithTools(['tmux'], 'at a real terminal (tmux)', () => {
  beforeAll(async () => {
    ensureBuilt();
    hub = await startHubEmulator();
    env = {
      HOME: dir,
      HUBCTL_CONFIG_DIR: join(dir, 'config'),
      HUBCTL_BASE_URL: hub.url,
      HUBCTL_ORG: 'acme',
      DOCKER_CONFIG: join(dir, 'docker'),
      TERM: 'xterm-256color',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
    };
  });
  afterAll(async () => {
    tmux('kill-server');
    await hub?.close();
  });

  it('auth login: "Username:" stays on screen while it is typed, then the muted secret prompt', async () => {
    start(['auth', 'login', '--insecure-storage']);
    // (capture-pane drops a line's trailing spaces.)
    expect(await waitFor('Username:')).toMatch(/^Username:$/m);
    tmux('send-keys', '-t', 'hubctl', '-l', 'alice');
    expect(await waitFor('Username: alice')).toMatch(/^Username: alice$/m);
    tmux('send-keys', '-t', 'hubctl', 'Enter');
    await waitFor('Password or access token:');
    tmux('send-keys', '-t', 'hubctl', '-l', 'alice-password');
    await sleep(300);
    const typed = screen();
    // The secret is not echoed, and both questions are still there.
    expect(typed).not.toContain('alice-password');
    expect(typed).toMatch(/^Username: alice$/m);
    expect(typed).toMatch(/^Password or access token:$/m);
    tmux('send-keys', '-t', 'hubctl', 'Enter');
    const done = await waitFor('[exit ');
    expect(done).toContain('Logged in as alice');
    expect(done).toContain('[exit 0]');
  }, 30_000);

  it('policy delete: the confirmation stays visible with the answer typed after it', async () => {
    expect((await runCli(['policy', 'create', 'egress'], { env })).code).toBe(0);
    start(['policy', 'delete', 'egress']);
    const asked = await waitFor('[y/N]');
    expect(asked).toMatch(/^Delete policy .*egress.*\? \[y\/N\]$/m);
    tmux('send-keys', '-t', 'hubctl', '-l', 'y');
    expect(await waitFor(/\[y\/N\] y$/m)).toMatch(/^Delete policy .*egress.*\? \[y\/N\] y$/m);
    tmux('send-keys', '-t', 'hubctl', 'Enter');
    const done = await waitFor('[exit ');
    expect(done).toContain('[exit 0]');
    expect(done).toMatch(/^Delete policy .*egress.*\? \[y\/N\] y$/m);
  }, 30_000);

  it.skipIf(!registryAvailable() && process.env.CI !== 'true')(
    'image pull through a slow link: the bars show the rate and the time left, within 80 columns',
    async () => {
      const registry = await startRegistry(hub.registryAuth);
      const slow = await throttledProxy(registry.host, 1024 * 1024);
      try {
        const img = await makeOciImage(join(dir, 'img'), {
          tag: 'v1',
          layers: 1,
          layerSize: 5 * 1024 * 1024,
        });
        const docker = join(dir, 'docker');
        mkdirSync(docker, { recursive: true });
        const auth = Buffer.from('alice:alice-password').toString('base64');
        writeFileSync(
          join(docker, 'config.json'),
          JSON.stringify({ auths: { [registry.host]: { auth }, [slow.host]: { auth } } }),
        );
        const push = await runCli(['image', 'push', `oci:${img.dir}:v1`, `${registry.host}/team/slow:v1`], {
          env,
        });
        expect(push.code, push.stderr).toBe(0);
        start(['image', 'pull', `${slow.host}/team/slow:v1`, `oci:${join(dir, 'out')}:v1`], [80, 24], {
          HUBCTL_PLATFORM: 'linux/amd64',
        });
        // Mid-transfer (5 MiB at 1 MiB/s): a rate and a time left on the layer's line and the total's.
        const mid = await waitFor(/sending$/m, 20_000);
        const during = await waitFor(/[\d.]+ (KiB|MiB)\/s +\d+s sending$/m, 20_000);
        expect(during).toMatch(/^ total +[█░]+ +\d+% .*\/s +\d+s sending$/m);
        for (const line of [...mid.split('\n'), ...during.split('\n')])
          expect(line.length).toBeLessThanOrEqual(80);
        const done = await waitFor('[exit ', 30_000);
        expect(done).toContain('[exit 0]');
        expect(done).toMatch(/^ total +█+ 100% /m);
        for (const line of done.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      } finally {
        await slow.close();
        await registry.stop();
      }
    },
    60_000,
  );
});

/** A loopback TCP proxy that sends the answers (target → client) at most `bytesPerSecond`. */
async function throttledProxy(
  target: string,
  bytesPerSecond: number,
): Promise<{ host: string; close(): Promise<void> }> {
  const [host, port] = target.split(':') as [string, string];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), host);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      upstream.pause();
      // Slices of 64 KiB, each after its share of a second.
      let at = 0;
      const next = () => {
        if (at >= chunk.length) return upstream.resume();
        const part = chunk.subarray(at, at + 64 * 1024);
        at += part.length;
        client.write(part);
        setTimeout(next, (part.length / bytesPerSecond) * 1000);
      };
      next();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('end', () => client.end());
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    host: `127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
