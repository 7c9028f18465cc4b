import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeHelperDir } from '../../support/fake-helpers.js';
import { makePassStore, type PassStore, passAvailable } from '../../support/pass-store.js';
import { scriptedPrompter } from '../../support/run-cli.js';
import { type Harness, resetHarness, startHarness } from '../harness.js';

if (!passAvailable && process.env.CI === 'true') {
  describe('docker-credential-pass', () => {
    it('needs golang-docker-credential-helpers, pass and gnupg', () => {
      throw new Error(
        'docker-credential-pass, pass or gpg is missing; .ci/run installs them (required when CI=true)',
      );
    });
  });
}

let h: Harness;
const helpers = fakeHelperDir();
const PATH = `${helpers}:${process.env.PATH}`;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(() => {
  resetHarness(h);
  h.env.PATH = PATH;
});

const credentialsFile = () => {
  const path = join(h.dir, 'credentials.json');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};
const login = (env: Record<string, string> = {}, extra: string[] = []) =>
  h.run(['auth', 'login', '-u', 'alice', '--password-stdin', ...extra], { stdin: 'alice-password\n', env });

describe('a credential helper that fails', () => {
  it('at login: an error naming it, exit 1, and nothing in the file', async () => {
    const r = await login({ HUBCTL_CREDENTIAL_STORE: 'fails' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'hubctl: docker-credential-fails store failed (exit 1): error storing credentials',
    );
    expect(credentialsFile()).not.toContain('alice-password');
    const missing = await login({ HUBCTL_CREDENTIAL_STORE: 'nosuch' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('docker-credential-nosuch was not found on the PATH');
    expect(missing.stderr).toContain('--insecure-storage');
    expect(credentialsFile()).not.toContain('alice-password');
  });

  it('--insecure-storage is the explicit way to the file', async () => {
    const r = await login({ HUBCTL_CREDENTIAL_STORE: 'fails' }, ['--insecure-storage']);
    expect(r.code).toBe(0);
    expect(JSON.parse(credentialsFile()).hub.default).toEqual({
      username: 'alice',
      secret: 'alice-password',
      origin: h.hub.url,
      base: h.hub.url,
    });
  });

  it('behind a stored entry: the next command fails naming it (exit 1), it does not try another source', async () => {
    mkdirSync(h.dir, { recursive: true });
    writeFileSync(
      join(h.dir, 'credentials.json'),
      JSON.stringify({
        hub: { default: { username: 'alice', helper: 'garbage', serverUrl: 'https://x/hubctl' } },
      }),
    );
    const r = await h.run(['token', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('docker-credential-garbage get answered something that is not a credential');
    expect(h.hub.requestsTo('/v2/auth/token')).toHaveLength(0);
  });

  it("the docker CLI's credsStore: offered on a terminal (yes → used, failing loudly; no → the file)", async () => {
    const docker = join(h.dir, 'docker');
    mkdirSync(docker);
    writeFileSync(join(docker, 'config.json'), JSON.stringify({ credsStore: 'fails' }));
    const yes = scriptedPrompter({ confirm: [true] });
    const r = await login({ DOCKER_CONFIG: docker }, []);
    // Off a terminal: the file, and a note on what docker uses.
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('docker-credential-fails; `hubctl config set credential-store fails`');
    const onTty = await h.run(['auth', 'login', '-u', 'alice'], {
      tty: true,
      env: { DOCKER_CONFIG: docker },
      prompter: { ...yes, secret: async () => 'alice-password' },
    });
    expect(yes.asked[0]).toContain('The docker CLI keeps its secrets in docker-credential-fails');
    expect(onTty.code).toBe(1);
    expect(onTty.stderr).toContain('docker-credential-fails store failed');
    const no = scriptedPrompter({ confirm: [false], secret: ['alice-password'] });
    const declined = await h.run(['auth', 'login', '-u', 'alice'], {
      tty: true,
      env: { DOCKER_CONFIG: docker },
      prompter: no,
    });
    expect(declined.code).toBe(0);
    expect(declined.stderr).toContain(`credential stored in ${join(h.dir, 'credentials.json')}`);
  });
});

(passAvailable ? describe : describe.skip)('docker-credential-pass (real pass and gpg)', () => {
  let store: PassStore;
  let passEnv: Record<string, string>;
  beforeAll(() => {
    store = makePassStore(PATH);
    passEnv = store.env;
  }, 60_000);
  afterAll(() => store.stop());
  const passList = () => store.list();

  it('login stores into pass, status names it, commands use it, logout erases it', async () => {
    const env = { ...passEnv, HUBCTL_CREDENTIAL_STORE: 'pass' };
    const r = await login(env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'Logged in as alice (credential stored in docker-credential-pass, chosen by the credential-store setting).\n',
    );
    const serverUrl = `${h.hub.url}/hubctl/profiles/default`;
    expect(passList()).toEqual({ [serverUrl]: 'alice' });
    // The file says where, never what.
    expect(JSON.parse(credentialsFile()).hub.default).toEqual({
      username: 'alice',
      helper: 'pass',
      serverUrl,
      origin: h.hub.url,
      base: h.hub.url,
    });
    for (const f of readdirSync(h.dir)) {
      if (f.endsWith('.json')) expect(readFileSync(join(h.dir, f), 'utf8')).not.toContain('alice-password');
    }

    const status = await h.run(['auth', 'status', '--json'], { env: passEnv });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ username: 'alice', store: 'docker-credential-pass' });
    expect((await h.run(['token', 'list'], { env: passEnv })).code).toBe(0);

    const out = await h.run(['auth', 'logout'], { env: passEnv });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('(erased from docker-credential-pass)');
    expect(passList()).toEqual({});
    expect(JSON.parse(credentialsFile()).hub).toEqual({});
  });
});
