// engine version / engine info against the engine emulator: negotiation, pinning, refusals in the
// daemon's words, /_ping without HEAD, unix socket and tcp, and the errors of an absent engine.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEcCertificate } from '../../support/certificate.js';
import {
  type EngineEmulator,
  type EngineEmulatorOptions,
  startEngineEmulator,
} from '../../support/engine-emulator.js';
import { freePort } from '../../support/free-port.js';
import { runCli } from '../../support/run-cli.js';

/** Root passes every permission check: as root, run the built bin as nobody (needs `npm run build`). */
async function asAnotherUser(argv: string[], env: Record<string, string>) {
  if (process.getuid?.() !== 0) return runCli(argv, { env });
  const bin = fileURLToPath(new URL('../../../bin/hubctl.js', import.meta.url));
  const r = spawnSync(
    'runuser',
    [
      '-u',
      'nobody',
      '--',
      'env',
      'HOME=/tmp',
      `HUBCTL_CONFIG_DIR=${tmpdir()}/hubctl-nobody`,
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      process.execPath,
      bin,
      ...argv,
    ],
    { encoding: 'utf8' },
  );
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

let engines: EngineEmulator[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

async function engine(options: EngineEmulatorOptions = {}, socket?: string): Promise<EngineEmulator> {
  const e = await startEngineEmulator(options, socket);
  engines.push(e);
  return e;
}

const versioned = (e: EngineEmulator) => e.requests.filter((r) => r.url !== '/_ping');

describe('engine version', () => {
  it('negotiates the daemon’s newest version once and sends every call under it', async () => {
    const e = await engine({ minApi: '1.24', maxApi: '1.43', engineVersion: '24.0.9' });
    const r = await runCli(['engine', 'version', '--json'], { env: { DOCKER_HOST: e.host } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      address: e.host,
      client: { newestApiVersion: '1.52' },
      daemon: { version: '24.0.9', apiVersion: '1.43', minApiVersion: '1.24', os: 'linux', arch: 'amd64' },
      negotiated: { apiVersion: '1.43', how: 'negotiated' },
    });
    expect(e.requests).toEqual([
      { method: 'HEAD', url: '/_ping' },
      { method: 'GET', url: '/v1.43/version' },
    ]);
  });

  it('caps a newer daemon at the newest version hubctl knows', async () => {
    const e = await engine({ maxApi: '1.60' });
    const r = await runCli(['engine', 'version', '--json'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).negotiated).toEqual({ apiVersion: '1.52', how: 'capped' });
    expect(versioned(e)).toEqual([{ method: 'GET', url: '/v1.52/version' }]);
  });

  it('asks /_ping with GET when the engine refuses HEAD', async () => {
    const e = await engine({ maxApi: '1.41', noHeadPing: true });
    const r = await runCli(['engine', 'version'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Negotiated API\t1.41');
    expect(e.requests.slice(0, 2)).toEqual([
      { method: 'HEAD', url: '/_ping' },
      { method: 'GET', url: '/_ping' },
    ]);
  });

  it('DOCKER_API_VERSION pins the version and skips /_ping', async () => {
    const e = await engine({ maxApi: '1.52' });
    const r = await runCli(['engine', 'version', '--json'], {
      env: { DOCKER_HOST: e.host, DOCKER_API_VERSION: '1.30' },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).negotiated).toEqual({ apiVersion: '1.30', how: 'DOCKER_API_VERSION' });
    expect(e.requests).toEqual([{ method: 'GET', url: '/v1.30/version' }]);
  });

  it('refuses a pinned version below 1.24 before sending anything (exit 2)', async () => {
    const e = await engine();
    const r = await runCli(['engine', 'version'], {
      env: { DOCKER_HOST: e.host, DOCKER_API_VERSION: '1.23' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'hubctl: DOCKER_API_VERSION 1.23 is older than 1.24, the oldest engine API version hubctl speaks\n',
    );
    expect(e.requests).toEqual([]);
  });

  it('says a pinned version is too old in one sentence with both versions and the range (exit 2)', async () => {
    const e = await engine({ minApi: '1.44', maxApi: '1.52' });
    const r = await runCli(['engine', 'version'], {
      env: { DOCKER_HOST: e.host, DOCKER_API_VERSION: '1.41' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `hubctl: the engine at ${e.host} refuses API version 1.41 as too old (it accepts 1.44 to 1.52)`,
    );
  });

  it('says a pinned version is too new (exit 2)', async () => {
    const e = await engine({ minApi: '1.24', maxApi: '1.43' });
    const r = await runCli(['engine', 'version'], {
      env: { DOCKER_HOST: e.host, DOCKER_API_VERSION: '1.50' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `hubctl: the engine at ${e.host} refuses API version 1.50 as too new (it accepts 1.24 to 1.43)`,
    );
  });

  it('a negotiated version the daemon refuses is a server failure (exit 7)', async () => {
    // A future daemon whose minimum is above hubctl's newest.
    const e = await engine({ minApi: '1.55', maxApi: '1.60' });
    const r = await runCli(['engine', 'version'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(7);
    expect(r.stderr).toBe(
      `hubctl: the engine at ${e.host} refuses API version 1.52 as too old (it accepts 1.55 to 1.60)\n`,
    );
  });

  it('refuses a daemon whose newest version is below 1.24 without a versioned call', async () => {
    const e = await engine({ minApi: '1.12', maxApi: '1.23' });
    const r = await runCli(['engine', 'version'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `hubctl: the engine at ${e.host} speaks API 1.23 at newest; hubctl needs 1.24 or newer`,
    );
    expect(versioned(e)).toEqual([]);
  });

  it('speaks over a unix socket, and --engine-host overrides DOCKER_HOST', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-engine-'));
    const e = await engine({ maxApi: '1.47' }, join(dir, 'engine.sock'));
    const r = await runCli(['--engine-host', e.host, 'engine', 'version', '--json'], {
      env: { DOCKER_HOST: 'tcp://127.0.0.1:1' },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).address).toBe(e.host);
    expect(versioned(e)).toEqual([{ method: 'GET', url: '/v1.47/version' }]);
  });
});

describe('engine over TLS (DOCKER_TLS_VERIFY, DOCKER_CERT_PATH)', () => {
  const certs = mkdtempSync(join(tmpdir(), 'hubctl-engine-tls-'));
  const server = { key: join(certs, 'server-key.pem'), cert: join(certs, 'server.pem') };
  makeEcCertificate(server.key, server.cert, { commonName: '127.0.0.1', days: 2, ipAddress: '127.0.0.1' });
  // The client's files, named as the docker CLI reads them: ca.pem, cert.pem, key.pem.
  makeEcCertificate(join(certs, 'key.pem'), join(certs, 'cert.pem'), { commonName: 'client', days: 2 });
  copyFileSync(server.cert, join(certs, 'ca.pem'));
  const tls = {
    key: readFileSync(server.key, 'utf8'),
    cert: readFileSync(server.cert, 'utf8'),
    ca: readFileSync(join(certs, 'cert.pem'), 'utf8'),
  };

  it('speaks TLS with the client certificate from DOCKER_CERT_PATH', async () => {
    const e = await engine({ maxApi: '1.45', tls });
    const r = await runCli(['engine', 'version', '--json'], {
      env: { DOCKER_HOST: e.host, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: certs },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).negotiated.apiVersion).toBe('1.45');
    expect(e.requests.at(-1)).toEqual({ method: 'GET', url: '/v1.45/version' });
  });

  it('a missing certificate file is named (exit 2), before anything is sent', async () => {
    const e = await engine({ tls });
    const empty = mkdtempSync(join(tmpdir(), 'hubctl-engine-nocert-'));
    const r = await runCli(['engine', 'version'], {
      env: { DOCKER_HOST: e.host, DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: empty },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`hubctl: cannot read the engine TLS file ${join(empty, 'ca.pem')}`);
    expect(e.requests).toEqual([]);
  });
});

describe('engine errors', () => {
  it('no engine at the address: one sentence naming it and DOCKER_HOST (exit 7)', async () => {
    const port = await freePort();
    const r = await runCli(['engine', 'version'], { env: { DOCKER_HOST: `tcp://127.0.0.1:${port}` } });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `hubctl: no container engine answers at tcp://127.0.0.1:${port} (from DOCKER_HOST)`,
    );
  });

  it('no socket at the default address names the default and DOCKER_HOST', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-engine-'));
    const r = await runCli(['--engine-host', `unix://${dir}/none.sock`, 'engine', 'info']);
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      `hubctl: no container engine answers at unix://${dir}/none.sock (from --engine-host, which overrides DOCKER_HOST)`,
    );
  });

  it('permission denied on the socket (exit 4)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hubctl-engine-'));
    chmodSync(dir, 0o755);
    const path = join(dir, 'locked.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    chmodSync(path, 0o600);
    try {
      const r = await asAnotherUser(['engine', 'version'], { DOCKER_HOST: `unix://${path}` });
      expect(r.stderr.split('\n')[0]).toBe(`hubctl: permission denied on the engine socket ${path}`);
      expect(r.code).toBe(4);
    } finally {
      server.close();
    }
  });

  it('a bad address is a usage error', async () => {
    const r = await runCli(['engine', 'version'], { env: { DOCKER_HOST: 'ssh://me@box' } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'hubctl: the engine address "ssh://***@box" (DOCKER_HOST) uses ssh://, which hubctl does not speak',
    );
  });
});

describe('engine info', () => {
  const expected = (host: string) => ({
    address: host,
    serverVersion: '29.0.0',
    mirrors: ['https://mirror.example'],
    insecureRegistryCIDRs: ['127.0.0.0/8'],
    indexConfigs: [{ name: 'docker.io', mirrors: ['https://mirror.example'], secure: true, official: true }],
    allowNondistributableArtifactsCIDRs: [],
    allowNondistributableArtifactsHostnames: [],
  });

  it.each(['1.24', '1.44', '1.48', '1.49', '1.52'])('shows the same settings at API %s', async (version) => {
    const e = await engine({ registry: { mirrors: ['https://mirror.example'] } });
    const r = await runCli(['engine', 'info', '--json'], {
      env: { DOCKER_HOST: e.host, DOCKER_API_VERSION: version },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual(expected(e.host));
    expect(e.requests).toEqual([{ method: 'GET', url: `/v${version}/info` }]);
  });

  it('an answer of the wrong shape is an unexpected answer (exit 7)', async () => {
    const e = await engine({ registry: { mirrors: [42 as unknown as string] } });
    const r = await runCli(['engine', 'info'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^hubctl: reading the engine information: unexpected answer from 127.0.0.1:\d+: RegistryConfig.IndexConfigs.docker.io.Mirrors\[0\]: expected string, got a number\n$/,
    );
  });
});
