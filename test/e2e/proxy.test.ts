// HTTPS_PROXY, HTTP_PROXY and NO_PROXY with the built bin against a real proxy (tinyproxy on
// 127.0.0.1): the hub emulator over plain HTTP and over HTTPS (CONNECT, --ca-file), and a real
// registry with token auth. The proxy's own log says what it carried.
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvent, startAuditEmulator } from '../support/audit-emulator.js';
import { makeEcCertificate } from '../support/certificate.js';
import { type HubEmulator, startHubEmulator } from '../support/hub-emulator.js';
import { makeOciImage } from '../support/oci-images.js';
import { describeWithRegistry, type RunningRegistry, startRegistry } from '../support/registry.js';
import { runBin as runBinWith } from '../support/run-bin.js';
import { type RunningProxy, startTinyproxy, tinyproxyAvailable } from '../support/tinyproxy.js';

const runBin = (args: string[], env: Record<string, string>) => runBinWith(args, { env });

const describeProxy = tinyproxyAvailable() ? describe : describe.skip;

let hub: HubEmulator;
let proxy: RunningProxy;
let tmp: string;
const login = () => ({
  HUBCTL_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')),
  HOME: tmp,
  HUBCTL_USERNAME: 'alice',
  HUBCTL_TOKEN: 'alice-password',
});
/** Lines the proxy logged while `fn` ran. */
async function carried<T>(fn: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const before = proxy.requests().length;
  const result = await fn();
  await new Promise((r) => setTimeout(r, 100)); // tinyproxy writes its log line after the fact
  return { result, lines: proxy.requests().slice(before) };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hubctl-proxy-'));
  hub = await startHubEmulator();
  if (tinyproxyAvailable()) proxy = await startTinyproxy();
});
afterAll(async () => {
  await proxy?.stop();
  await hub?.close();
});

describeProxy('the hub through a proxy', () => {
  let tls: Server;
  let httpsUrl: string;
  let caFile: string;
  beforeAll(async () => {
    // HTTPS in front of the emulator: TLS ends here, the bytes go on to the emulator.
    makeEcCertificate(join(tmp, 'key.pem'), join(tmp, 'cert.pem'), {
      commonName: '127.0.0.1',
      days: 2,
      ipAddress: '127.0.0.1',
    });
    caFile = join(tmp, 'cert.pem');
    tls = createTlsServer({ key: readFileSync(join(tmp, 'key.pem')), cert: readFileSync(caFile) }, (s) => {
      const up = connect(hub.port, '127.0.0.1');
      s.pipe(up).pipe(s);
      up.on('error', () => s.destroy());
      s.on('error', () => up.destroy());
    });
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', () => r()));
    const address = tls.address();
    httpsUrl = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((r) => tls?.close(r));
  });

  it.each(['HTTP_PROXY', 'http_proxy'])('%s carries `auth status` to a plain-HTTP hub', async (name) => {
    hub.clearRequests();
    const { result, lines } = await carried(() =>
      runBin(['auth', 'status'], { ...login(), HUBCTL_BASE_URL: hub.url, [name]: proxy.url }),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(lines).toContain(`CONNECT 127.0.0.1:${hub.port}`);
    expect(hub.requestsTo('/v2/auth/token', 'POST')).toHaveLength(1);
  });

  it.each(['HTTPS_PROXY', 'https_proxy'])(
    '%s tunnels HTTPS with CONNECT, the hub trusted with --ca-file',
    async (name) => {
      hub.clearRequests();
      const env = { ...login(), HUBCTL_BASE_URL: httpsUrl, [name]: proxy.url };
      const { result, lines } = await carried(() =>
        runBin(['--ca-file', caFile, '--json', 'token', 'list'], env),
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      // token list --json: an array of tokens (one JSON shape per list).
      expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
      expect(lines).toEqual(expect.arrayContaining([`CONNECT ${new URL(httpsUrl).host}`]));
      expect(lines.every((l) => l.startsWith('CONNECT '))).toBe(true); // nothing in the clear
      expect(hub.requestsTo('/v2/access-tokens', 'GET')).toHaveLength(1);

      const untrusted = await runBin(['token', 'list'], env);
      expect(untrusted.code).toBe(7);
      expect(untrusted.stderr).toMatch(/certificate is not trusted \(add its CA with --ca-file/);
      expect(untrusted.stderr.trim().split('\n')).toHaveLength(1);
    },
  );

  it.each([
    ['NO_PROXY', '127.0.0.1'],
    ['no_proxy', `127.0.0.1:${0}`],
    ['NO_PROXY', '127.0.0.0/8'],
  ])('%s=%s goes direct', async (name, value) => {
    const port = new URL(httpsUrl).port;
    const entry = value.replace(':0', `:${port}`);
    const { result, lines } = await carried(() =>
      runBin(['--ca-file', caFile, 'auth', 'status'], {
        ...login(),
        HUBCTL_BASE_URL: httpsUrl,
        HTTPS_PROXY: proxy.url,
        [name]: entry,
      }),
    );
    expect(result.code).toBe(0);
    expect(lines).toEqual([]);
  });

  it('an https:// proxy is spoken to over TLS, trusted with --ca-file too', async () => {
    // TLS in front of tinyproxy: the client speaks TLS to the proxy, then CONNECT, then TLS again.
    const front = createTlsServer(
      { key: readFileSync(join(tmp, 'key.pem')), cert: readFileSync(caFile) },
      (s) => {
        const up = connect(proxy.port, '127.0.0.1');
        s.pipe(up).pipe(s);
        up.on('error', () => s.destroy());
        s.on('error', () => up.destroy());
      },
    );
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (front.address() as { port: number }).port;
      const { result, lines } = await carried(() =>
        runBin(['--ca-file', caFile, 'auth', 'status'], {
          ...login(),
          HUBCTL_BASE_URL: httpsUrl,
          HTTPS_PROXY: `https://127.0.0.1:${port}`,
        }),
      );
      // No DEP0123 warning either: an IP address is not sent as the proxy's TLS server name.
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(lines).toEqual([`CONNECT ${new URL(httpsUrl).host}`]);
    } finally {
      await new Promise((r) => front.close(r));
    }
  });

  it('a proxy that is down is a network error in one sentence, exit 7', async () => {
    const r = await runBin(['auth', 'status'], {
      ...login(),
      HUBCTL_BASE_URL: httpsUrl,
      HTTPS_PROXY: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toBe(
      `hubctl: signing in as alice: POST ${httpsUrl}/v2/auth/token failed: connection refused (through the proxy http://127.0.0.1:9)\n`,
    );
  });

  it('a proxy URL that does not parse is a usage error (exit 2)', async () => {
    const r = await runBin(['auth', 'status'], {
      ...login(),
      HUBCTL_BASE_URL: httpsUrl,
      HTTPS_PROXY: 'http://[x',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTPS_PROXY is not a valid proxy URL/);
  });
});

describeWithRegistry('a registry with token auth through a proxy', () => {
  let registry: RunningRegistry;
  let env: Record<string, string>;
  beforeAll(async () => {
    registry = await startRegistry(hub.registryAuth);
    const image = await makeOciImage(join(tmp, 'img'), { tag: 'v1', layers: 1, layerSize: 64 * 1024 });
    const dir = mkdtempSync(join(tmp, 'docker-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        auths: { [registry.host]: { auth: Buffer.from('alice:alice-password').toString('base64') } },
      }),
    );
    env = {
      HUBCTL_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')),
      HOME: tmp,
      DOCKER_CONFIG: dir,
      HUBCTL_BASE_URL: hub.url,
      HUBCTL_PLATFORM: 'linux/amd64',
    };
    const pushed = await runBin(
      ['image', 'push', `oci:${image.dir}:v1`, `${registry.host}/team/app:v1`],
      env,
    );
    expect(pushed.stderr).toMatch(/Pushed/);
    expect(pushed.code).toBe(0);
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it.skipIf(!tinyproxyAvailable())(
    'image tags, inspect and pull: registry and token service both through the proxy',
    async () => {
      for (const args of [
        ['image', 'tags', `${registry.host}/team/app`],
        ['image', 'inspect', `${registry.host}/team/app:v1`],
        ['image', 'pull', `${registry.host}/team/app:v1`, `oci:${join(tmp, 'pulled')}`],
      ]) {
        const { result, lines } = await carried(() => runBin(args, { ...env, HTTP_PROXY: proxy.url }));
        expect(result.code, result.stderr).toBe(0);
        expect(lines).toContain(`CONNECT ${registry.host}`);
        expect(lines).toContain(`CONNECT 127.0.0.1:${hub.port}`); // the realm
      }
      const direct = await carried(() =>
        runBin(['image', 'tags', `${registry.host}/team/app`], {
          ...env,
          HTTP_PROXY: proxy.url,
          NO_PROXY: '127.0.0.1',
        }),
      );
      expect(direct.result.stdout).toBe('v1\n');
      expect(direct.lines).toEqual([]);
    },
  );
});

// The audit log's page reads take their own path to the wire (undici's dispatch with a collecting
// handler, http/layers/wire.ts): it must go through the proxy as every other request does.
describeProxy('the audit log through a proxy', () => {
  it('HTTP_PROXY carries every page of `audit export`, and the file holds every event once', async () => {
    const anchor = Date.parse('2026-11-20T12:00:00.000Z');
    const events = Array.from({ length: 45 }, (_, i) =>
      auditEvent(i + 1, new Date(anchor - 60_000 * (i + 1)).toISOString()),
    );
    const emu = await startAuditEmulator({ events: { acme: events }, pageSizeCap: 10, now: () => anchor });
    try {
      const out = join(mkdtempSync(join(tmp, 'audit-')), 'events.ndjson');
      const { result, lines } = await carried(() =>
        runBin(
          ['audit', 'export', '--from', '2026-11-19T00:00:00Z', '--to', '2026-11-20T12:00:00Z', '-o', out],
          {
            HUBCTL_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')),
            HOME: tmp,
            HUBCTL_AUDIT_URL: emu.url,
            HUBCTL_AUDIT_TOKEN: 'hub_oat_acme-audit-0001',
            HUBCTL_ORG: 'acme',
            HTTP_PROXY: proxy.url,
          },
        ),
      );
      expect(result.stderr).toBe(`Exported 45 events to ${out}.\n`);
      expect(result.code).toBe(0);
      // 45 events, 10 a page: 5 pages, each carried by the proxy (a tunnel per connection).
      expect(emu.requests.length).toBe(5);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.every((l) => l === `CONNECT 127.0.0.1:${new URL(emu.url).port}`)).toBe(true);
      const ids = readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).audit_event_id);
      expect(new Set(ids).size).toBe(45);
      expect(ids.sort()).toEqual(events.map((e) => e.audit_event_id).sort());
    } finally {
      await emu.close();
    }
  });
});
