// Prompts and progress as a person at a terminal sees them: the real bin runs inside tmux (a real
// pseudo-terminal, 100 columns), keys are typed with send-keys, and the screen is read back with
// capture-pane — what is drawn, after every escape sequence did its work.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
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

/** Starts `hubctl ARGS` in a 100×24 terminal, in the test's environment; the pane stays after it exits. */
function start(args: string[]): void {
  const script = join(dir, 'run.sh');
  const exports = Object.entries(env)
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n');
  writeFileSync(
    script,
    `${exports}\nclear\n"${process.execPath}" "${join(ROOT, 'bin/hubctl.js')}" ${args.map((a) => `'${a}'`).join(' ')}\necho "[exit $?]"\nsleep 60\n`,
  );
  tmux('kill-session', '-t', 'hubctl');
  const r = tmux('new-session', '-d', '-s', 'hubctl', '-x', '100', '-y', '24', `sh ${script}`);
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
});
