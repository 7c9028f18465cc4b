import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentialChain } from '../../src/auth/chain.js';
import { dockerConfigPath, dockerCredential } from '../../src/auth/docker-config.js';
import { resolveSettings } from '../../src/config/settings.js';
import { openConfigStore } from '../../src/config/store.js';
import { AuthError } from '../../src/errors.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const basic = (user: string, secret: string) => Buffer.from(`${user}:${secret}`).toString('base64');

/** A docker config directory holding config.json. */
function dockerDir(config: unknown): string {
  const d = tmp('hubctl-docker-');
  writeFileSync(join(d, 'config.json'), JSON.stringify(config));
  return d;
}

// A fake docker-credential-<x> helper on PATH: answers `get` for the servers it knows, logs what it was asked.
let binDir: string;
let helperLog: string;
const originalPath = process.env.PATH;
beforeAll(() => {
  binDir = tmp('hubctl-bin-');
  helperLog = join(binDir, 'helper.log');
  const script = `#!/bin/sh
if [ "$1" = list ]; then echo '{"https://index.docker.io/v1/":"hubuser","tokens.example":"<token>"}'; exit 0; fi
[ "$1" = get ] || exit 2
read server
echo "$server" >> "${helperLog}"
case "$server" in
  https://index.docker.io/v1/) echo '{"ServerURL":"https://index.docker.io/v1/","Username":"hubuser","Secret":"hub-helper-secret"}' ;;
  registry.example.com:5000) echo '{"ServerURL":"registry.example.com:5000","Username":"reguser","Secret":"reg-helper-secret"}' ;;
  tokens.example) echo '{"ServerURL":"tokens.example","Username":"<token>","Secret":"helper-identity-token"}' ;;
  *) echo "credentials not found in native keychain"; exit 1 ;;
esac
`;
  for (const name of ['docker-credential-fake', 'docker-credential-other']) {
    writeFileSync(join(binDir, name), script);
    chmodSync(join(binDir, name), 0o755);
  }
  process.env.PATH = `${binDir}${delimiter}${originalPath}`;
});
afterAll(() => {
  process.env.PATH = originalPath;
});
const asked = () => {
  try {
    return readFileSync(helperLog, 'utf8').trim().split('\n');
  } catch {
    return [];
  }
};

function chain(
  env: Record<string, string | undefined>,
  opts: { baseUrl?: string; profile?: string; store?: string } = {},
) {
  const dir = opts.store ?? tmp('hubctl-cfg-');
  const settings = resolveSettings({ baseUrl: opts.baseUrl, profile: opts.profile }, env, {});
  return createCredentialChain({ env, settings, store: () => openConfigStore(dir) });
}

describe('credential chain: first source wins', () => {
  it('environment first: HUBCTL_USERNAME + HUBCTL_TOKEN', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setHubCredential('default', { username: 'stored', secret: 'stored-secret' });
    const c = await chain({ HUBCTL_USERNAME: 'envuser', HUBCTL_TOKEN: 'hub_pat_env' }, { store }).hub();
    expect(c).toEqual({
      username: 'envuser',
      secret: 'hub_pat_env',
      source: 'environment (HUBCTL_USERNAME, HUBCTL_TOKEN)',
      store: 'environment',
    });
  });

  it('HUBCTL_TOKEN without an account name is an authentication error saying what to set', async () => {
    const err = await chain({ HUBCTL_TOKEN: 'x' })
      .hub()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).hint).toMatch(/HUBCTL_USERNAME/);
  });

  it('then the stored credential of the profile', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setHubCredential('staging', { username: 'bob', secret: 'bob-secret' });
    const docker = dockerDir({
      auths: { 'https://index.docker.io/v1/': { auth: basic('dockeruser', 'dpw') } },
    });
    expect(await chain({ DOCKER_CONFIG: docker }, { store, profile: 'staging' }).hub()).toEqual({
      username: 'bob',
      secret: 'bob-secret',
      source: 'stored credential of profile "staging"',
      store: 'file',
    });
    // Another profile has nothing stored: falls through to docker's Docker Hub login.
    expect((await chain({ DOCKER_CONFIG: docker }, { store, profile: 'default' }).hub())?.source).toBe(
      'docker config.json (auths)',
    );
  });

  it("then docker's config.json auths for Docker Hub", async () => {
    const docker = dockerDir({
      auths: { 'https://index.docker.io/v1/': { auth: basic('dockeruser', 'p:w:d') } },
    });
    expect(await chain({ DOCKER_CONFIG: docker }).hub()).toEqual({
      username: 'dockeruser',
      secret: 'p:w:d',
      source: 'docker config.json (auths)',
    });
  });

  it('then credsStore through the docker-credential helper protocol', async () => {
    const docker = dockerDir({ credsStore: 'fake', auths: { 'https://index.docker.io/v1/': {} } });
    expect(await chain({ DOCKER_CONFIG: docker }).hub()).toEqual({
      username: 'hubuser',
      secret: 'hub-helper-secret',
      source: 'docker-credential-fake',
    });
    expect(asked()).toContain('https://index.docker.io/v1/');
  });

  it('never offers Docker Hub credentials to another base URL', async () => {
    const docker = dockerDir({
      credsStore: 'fake',
      auths: { 'https://index.docker.io/v1/': { auth: basic('dockeruser', 'dpw') } },
    });
    const before = asked().length;
    expect(await chain({ DOCKER_CONFIG: docker }, { baseUrl: 'http://127.0.0.1:9' }).hub()).toBeUndefined();
    expect(
      await chain({ DOCKER_CONFIG: docker, HUBCTL_BASE_URL: 'https://hub.staging.example' }).hub(),
    ).toBeUndefined();
    // The helper was not even asked.
    expect(asked().length).toBe(before);
  });

  it.each([
    'http://hub.docker.com',
    'http://hub.docker.com:8080',
    'https://hub.docker.com:8443',
    'https://hub.docker.com.evil.example',
  ])(
    "docker's Docker Hub login is not Docker Hub's at %s: only https://hub.docker.com exactly",
    async (baseUrl) => {
      const docker = dockerDir({
        auths: { 'https://index.docker.io/v1/': { auth: basic('dockeruser', 'dpw') } },
      });
      const c = chain({ DOCKER_CONFIG: docker }, { baseUrl });
      expect(await c.hub()).toBeUndefined();
      expect(await c.registry('docker.io')).toMatchObject({ username: 'dockeruser' }); // registry-1.docker.io, https
      for (const exact of ['https://hub.docker.com', 'https://HUB.docker.com:443/']) {
        expect((await chain({ DOCKER_CONFIG: docker }, { baseUrl: exact }).hub())?.username).toBe(
          'dockeruser',
        );
      }
    },
  );

  it('a stored hub credential goes only to the origin it was verified against at login', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setHubCredential('default', {
      username: 'alice',
      secret: 'hub-secret',
      origin: 'https://hub.docker.com',
    });
    expect((await chain({}, { store }).hub())?.secret).toBe('hub-secret');
    const err = await chain({}, { store, baseUrl: 'https://hub.evil.example' })
      .hub()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toBe(
      'the stored credential of profile "default" is for https://hub.docker.com; hubctl does not send it to https://hub.evil.example',
    );
    await expect(chain({}, { store, baseUrl: 'http://hub.docker.com:8080' }).hub()).rejects.toThrow(
      AuthError,
    );
  });

  it('a stored hub credential goes only to the base path it was verified against', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setHubCredential('default', {
      username: 'alice',
      secret: 'hub-secret',
      origin: 'https://hubs.example',
      base: 'https://hubs.example/team-a',
    });
    // The same base, however written: trailing slash, host case, default port.
    for (const baseUrl of ['https://hubs.example/team-a', 'https://HUBS.example:443/team-a/']) {
      expect((await chain({}, { store, baseUrl }).hub())?.secret).toBe('hub-secret');
    }
    for (const baseUrl of [
      'https://hubs.example/team-b',
      'https://hubs.example',
      'https://hubs.example/team-a/x',
    ]) {
      const err = await chain({}, { store, baseUrl })
        .hub()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect((err as Error).message).toBe(
        `the stored credential of profile "default" is for https://hubs.example/team-a; hubctl does not send it to ${baseUrl}`,
      );
    }
  });

  it('nothing anywhere: undefined', async () => {
    expect(await chain({ DOCKER_CONFIG: tmp('hubctl-empty-') }).hub()).toBeUndefined();
  });
});

describe('registry credentials', () => {
  it('stored per host first, then docker credHelpers, then auths', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setRegistryCredential('localhost:5000', { username: 'ci', secret: 'ci-secret' });
    const docker = dockerDir({
      credHelpers: { 'registry.example.com:5000': 'other' },
      auths: {
        'localhost:5000': { auth: basic('docker-ci', 'x') },
        'https://ghcr.example': { username: 'gh', password: 'gh-secret' },
      },
    });
    const c = chain({ DOCKER_CONFIG: docker }, { store });
    expect(await c.registry('localhost:5000')).toEqual({
      username: 'ci',
      secret: 'ci-secret',
      source: 'hubctl credentials.json',
      store: 'file',
    });
    expect(await c.registry('registry.example.com:5000')).toEqual({
      username: 'reguser',
      secret: 'reg-helper-secret',
      source: 'docker-credential-other',
    });
    expect(await c.registry('ghcr.example')).toEqual({
      username: 'gh',
      secret: 'gh-secret',
      source: 'docker config.json (auths)',
    });
    expect(await c.registry('unknown.example')).toBeUndefined();
  });

  it('a helper that has nothing falls through to auths', async () => {
    const docker = dockerDir({ credsStore: 'fake', auths: { 'quay.example': { auth: basic('q', 'qs') } } });
    expect(await dockerCredential({ DOCKER_CONFIG: docker }, 'quay.example')).toEqual({
      username: 'q',
      secret: 'qs',
      source: 'docker config.json (auths)',
    });
  });

  it('docker.io and its aliases use the hub chain', async () => {
    const c = chain({ HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: 'hub_pat_x' });
    for (const host of ['docker.io', 'index.docker.io', 'registry-1.docker.io']) {
      expect((await c.registry(host))?.username).toBe('alice');
    }
  });

  it("a credential for another hub (--base-url) is never offered to docker.io; docker's own login is", async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setHubCredential('default', {
      username: 'staging-user',
      secret: 'staging-secret',
    });
    const docker = dockerDir({
      auths: { 'https://index.docker.io/v1/': { auth: basic('dockeruser', 'dpw') } },
    });
    const env = { DOCKER_CONFIG: docker, HUBCTL_USERNAME: 'envuser', HUBCTL_TOKEN: 'env-secret' };
    const c = chain(env, { store, baseUrl: 'https://hub.staging.example' });
    expect((await c.hub())?.username).toBe('envuser');
    expect(await c.registry('docker.io')).toEqual({
      username: 'dockeruser',
      secret: 'dpw',
      source: 'docker config.json (auths)',
    });
    expect(
      await chain({}, { store, baseUrl: 'https://hub.staging.example' }).registry('docker.io'),
    ).toBeUndefined();
  });

  it.each([
    'null',
    '[1,2]',
    '"x"',
    '{"auths": null}',
    '{"auths": {"x.example": null}}',
    '{"auths": {"x.example": {"auth": 12}}}',
    '{"auths": {"x.example": {"username": ["u"], "password": {"p": 1}}}}',
    '{"credHelpers": {"x.example": "../../bin/sh"}}',
    '{"credsStore": 5}',
  ])('a docker config of the wrong shape (%s) means no credential, never a crash', async (text) => {
    const d = tmp('hubctl-docker-');
    writeFileSync(join(d, 'config.json'), text);
    const ran: string[] = [];
    const runner = async (helper: string) => {
      ran.push(helper);
      return '{}';
    };
    expect(await dockerCredential({ DOCKER_CONFIG: d }, 'x.example', runner)).toBeUndefined();
    expect(ran).toEqual([]);
  });

  it.each(['null', '[]', '{"Username": 1, "Secret": "s"}', '{"Username": "u", "Secret": {}}'])(
    'a credential helper answering %s gives no credential',
    async (answer) => {
      const d = tmp('hubctl-docker-');
      writeFileSync(join(d, 'config.json'), '{"credsStore": "pass"}');
      expect(await dockerCredential({ DOCKER_CONFIG: d }, 'x.example', async () => answer)).toBeUndefined();
    },
  );

  it('a malformed docker config is ignored, not fatal, and the file is only read', async () => {
    const d = tmp('hubctl-docker-');
    writeFileSync(join(d, 'config.json'), '{ broken');
    expect(await dockerCredential({ DOCKER_CONFIG: d }, 'x.example')).toBeUndefined();
    expect(readFileSync(join(d, 'config.json'), 'utf8')).toBe('{ broken');
  });

  it('finds config.json under DOCKER_CONFIG, else ~/.docker', () => {
    expect(dockerConfigPath({ DOCKER_CONFIG: '/d' })).toBe('/d/config.json');
    expect(dockerConfigPath({ HOME: '/home/u' })).toBe('/home/u/.docker/config.json');
  });
});

describe('registry credentials for CI: DOCKER_AUTH_CONFIG and identity tokens', () => {
  it('DOCKER_AUTH_CONFIG comes first, before a stored credential and the docker config file', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setRegistryCredential('localhost:5000', { username: 'stored', secret: 's' });
    const env = {
      DOCKER_AUTH_CONFIG: JSON.stringify({ auths: { 'localhost:5000': { auth: basic('ci', 'from-env') } } }),
      DOCKER_CONFIG: dockerDir({ auths: { 'localhost:5000': { auth: basic('file', 'f') } } }),
    };
    expect(await chain(env, { store }).registry('localhost:5000')).toEqual({
      username: 'ci',
      secret: 'from-env',
      source: 'DOCKER_AUTH_CONFIG (auths)',
    });
    // Malformed: ignored, like a malformed file; the next source answers.
    expect(
      (await chain({ ...env, DOCKER_AUTH_CONFIG: '{nope' }, { store }).registry('localhost:5000'))?.username,
    ).toBe('stored');
  });

  it('an identitytoken, or a helper user "<token>", is marked as a refresh token, not a password', async () => {
    const env = {
      DOCKER_CONFIG: dockerDir({
        credHelpers: { 'tokens.example': 'fake' },
        auths: { 'idt.example': { auth: basic('<token>', ''), identitytoken: 'refresh-me' } },
      }),
    };
    expect(await chain(env).registry('idt.example')).toEqual({
      username: '<token>',
      secret: 'refresh-me',
      source: 'docker config.json (auths)',
      identityToken: true,
    });
    expect(await chain(env).registry('tokens.example')).toMatchObject({
      identityToken: true,
      secret: 'helper-identity-token',
    });
  });

  it('lists every registry credential in chain order with its source and kind, never a secret', async () => {
    const store = tmp('hubctl-cfg-');
    openConfigStore(store).setRegistryCredential('localhost:5000', { username: 'stored', secret: 's3cret' });
    const docker = dockerDir({
      credsStore: 'fake',
      credHelpers: { 'registry.example.com:5000': 'other' },
      auths: {
        'https://index.docker.io/v1/': { auth: basic('hub', 'h') },
        'idt.example': { identitytoken: 'x' },
      },
    });
    const env = {
      DOCKER_CONFIG: docker,
      DOCKER_AUTH_CONFIG: JSON.stringify({ auths: { 'ci.example': { username: 'ci', password: 'p' } } }),
    };
    const listed = await chain(env, { store }).listRegistries();
    const file = join(docker, 'config.json');
    expect(listed).toEqual([
      { registry: 'ci.example', username: 'ci', source: 'DOCKER_AUTH_CONFIG', kind: 'password' },
      { registry: 'localhost:5000', username: 'stored', source: 'hubctl credentials.json', kind: 'password' },
      { registry: 'docker.io', username: 'hub', source: file, kind: 'password' },
      { registry: 'idt.example', username: '<token>', source: file, kind: 'identity token' },
      {
        registry: 'registry.example.com:5000',
        username: '',
        source: 'docker-credential-other',
        kind: 'helper',
      },
      { registry: 'docker.io', username: 'hubuser', source: 'docker-credential-fake', kind: 'helper' },
      { registry: 'tokens.example', username: '<token>', source: 'docker-credential-fake', kind: 'helper' },
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/s3cret|"p"|"h"/);
  });
});
