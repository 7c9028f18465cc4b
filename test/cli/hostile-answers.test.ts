// A hostile hub and a hostile registry, driving every command family: answers of the wrong type,
// null, arrays, wrong-typed fields, and escape sequences in names, labels and messages. Each case
// asserts the exit code, one line on stderr, and that no raw control character reached a stream.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, resetHarness, startHarness } from '../commands/harness.js';
import {
  EVIL,
  EVIL_SHOWN,
  expectCleanFailure,
  expectNoRawControl,
  NOT_AN_OBJECT,
  reply,
  startHostileServer,
} from '../support/hostile.js';
import type { StoredPolicy } from '../support/hub-emulator.js';

let h: Harness;
let policy: StoredPolicy;
const ORG = 'acme';
const POLICIES = `/v2/orgs/${ORG}/governance/policies`;
const UNEXPECTED = (what: string) =>
  new RegExp(`^hubctl: ${what}: unexpected answer from 127\\.0\\.0\\.1:\\d+: `);

const summary = (over: Record<string, unknown> = {}) => ({
  id: 'pol_x',
  name: 'p',
  org: ORG,
  scope: {},
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  type: 'allowlist_v0',
  ...over,
});
const rule = (over: Record<string, unknown> = {}) => ({
  id: 'rule_1',
  name: 'r',
  actions: ['connect:tcp'],
  decision: 'allow',
  resources: ['example.com'],
  ...over,
});
const token = (over: Record<string, unknown> = {}) => ({
  uuid: '0b7f4bb0-0000-4000-8000-000000000001',
  token_label: 'ci',
  scopes: ['repo:read'],
  is_active: true,
  created_at: '2026-01-01T00:00:00.000000Z',
  expires_at: null,
  last_used: null,
  ...over,
});

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.hub.close());
beforeEach(async () => {
  resetHarness(h);
  h.env.HUBCTL_ORG = ORG;
  h.env.HUBCTL_USERNAME = 'alice';
  h.env.HUBCTL_TOKEN = 'alice-password';
  h.hub.state.policies.length = 0;
  policy = h.hub.seedPolicy(ORG, { name: 'base', rules: [rule({ id: undefined, name: 'web' })] });
});

describe('governance answers of the wrong shape: exit 7, one line', () => {
  const listing = `listing policies of org ${ORG}`;
  it.each<[string, unknown, string]>([
    ...NOT_AN_OBJECT.map(([what, body]): [string, unknown, string] => [what, body, '']),
    ['data: "abc"', { data: 'abc' }, 'data: expected Array, got a string'],
    ['data: [null]', { data: [null] }, 'data\\[0\\]: expected Object, got null'],
    ['a name that is a number', { data: [summary({ name: 5 })] }, 'data\\[0\\]\\.name: expected string'],
    ['an empty id', { data: [summary({ id: '' })] }, 'data\\[0\\]\\.id: expected a non-empty string'],
    ['teams that are not a list', { data: [summary({ scope: { teams: 'all' } })] }, 'scope\\.teams'],
    ['a page token that is a number', { data: [], next_page_token: 7 }, 'next_page_token'],
  ])('policy list, %s', async (_what, body, detail) => {
    h.hub.inject({ method: 'GET', path: POLICIES }, [{ status: 200, body }]);
    const r = await h.run(['policy', 'list']);
    expectCleanFailure(r, 7, new RegExp(`${UNEXPECTED(listing).source}.*${detail}`));
  });

  it('policy list: not JSON at all is exit 7 too', async () => {
    h.hub.inject({ method: 'GET', path: POLICIES }, [{ status: 200, body: '<html>' }]);
    expectCleanFailure(
      await h.run(['policy', 'list']),
      7,
      /unexpected answer from [\d.:]+: the body is not valid JSON/,
    );
  });

  it.each([
    ['null', null, 'expected Object, got null'],
    ['rules: "abc"', { ...summary({ id: 'x' }), allowlist_v0: { rules: 'abc' } }, 'allowlist_v0\\.rules'],
    [
      'a decision that is neither allow nor deny',
      { ...summary(), allowlist_v0: { rules: [rule({ decision: 'maybe' })] } },
      'allowlist_v0\\.rules\\[0\\]\\.decision: expected \\("allow" \\| "deny"\\)',
    ],
    [
      'actions as one string',
      { ...summary(), allowlist_v0: { rules: [rule({ actions: 'connect:tcp' })] } },
      'actions: expected Array',
    ],
    [
      'a rule with no resources at all',
      { ...summary(), allowlist_v0: { rules: [rule({ resources: undefined })] } },
      'a rule with neither resources nor http_resources',
    ],
    ['an unknown domain', { ...summary(), allowlist_v0: { domain: 'dns', rules: [] } }, 'domain'],
  ])('policy get and rule list, %s', async (_what, body, detail) => {
    for (const argv of [
      ['policy', 'get', 'base'],
      ['rule', 'list', 'base'],
    ]) {
      h.hub.inject({ method: 'GET', path: `${POLICIES}/${policy.id}` }, [{ status: 200, body }]);
      const r = await h.run(argv);
      expectCleanFailure(
        r,
        7,
        new RegExp(`${UNEXPECTED(`reading policy ${policy.id} of org ${ORG}`).source}.*${detail}`),
      );
    }
  });

  it.each([
    ['policy create', ['policy', 'create', 'new'], 'POST', '', 201],
    ['policy update', ['policy', 'update', 'base', '--name', 'renamed'], 'PATCH', '/pol_[^/]+', 200],
    ['policy delete', ['policy', 'delete', 'base', '--yes'], 'DELETE', '/pol_[^/]+', 200],
    [
      'rule add',
      [
        'rule',
        'add',
        'base',
        '--name',
        'n',
        '--action',
        'connect:tcp',
        '--decision',
        'deny',
        '--resource',
        'x.example',
      ],
      'POST',
      '/pol_[^/]+/rules',
      201,
    ],
    [
      'rule update',
      ['rule', 'update', 'base', 'web', '--name', 'www'],
      'PATCH',
      '/pol_[^/]+/rules/rule_[^/]+',
      200,
    ],
    ['rule delete', ['rule', 'delete', 'base', 'web', '--yes'], 'DELETE', '/pol_[^/]+/rules/rule_[^/]+', 200],
  ] as const)(
    '%s: a write whose answer is wrong says it may have landed (exit 7)',
    async (_what, argv, method, suffix, status) => {
      for (const body of [null, [], { id: null, name: 12 }, { old: 'x', new: null, deleted: [] }]) {
        h.hub.inject({ method, path: new RegExp(`^${POLICIES}${suffix}$`) }, [{ status, body }]);
        const r = await h.run([...argv]);
        expectCleanFailure(
          r,
          7,
          /unexpected answer from 127\.0\.0\.1:\d+: .*\nThe server took the request before its answer went wrong/s,
        );
      }
    },
  );
});

describe('escape sequences from the hub are shown escaped', () => {
  beforeEach(() => {
    h.hub.state.policies.length = 0;
    policy = h.hub.seedPolicy(ORG, {
      name: EVIL,
      rules: [rule({ id: undefined, name: EVIL, resources: [EVIL] })],
    });
  });

  it.each([false, true])('policy list, policy get and rule list (terminal: %s)', async (tty) => {
    for (const argv of [
      ['policy', 'list'],
      ['policy', 'get', policy.id],
      ['rule', 'list', policy.id],
    ]) {
      const r = await h.run(argv, { tty });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(EVIL_SHOWN);
      expectNoRawControl(tty ? { ...r, stdout: r.stdout.replace(/\u001b\[\d+m/g, '') } : r);
    }
  });

  it('--json keeps the names exactly, with every control character escaped by JSON', async () => {
    const r = await h.run(['policy', 'get', policy.id, '--json']);
    expect(r.code).toBe(0);
    expectNoRawControl(r);
    expect(JSON.parse(r.stdout).name).toBe(EVIL);
  });

  it('a server message with escape sequences and a newline stays one escaped line on stderr', async () => {
    for (const json of [false, true]) {
      h.hub.inject({ method: 'GET', path: POLICIES }, [
        { status: 400, body: { error: { code: 'invalid_argument', message: EVIL } } },
      ]);
      const r = await h.run(['policy', 'list', ...(json ? ['--json'] : [])]);
      expect(r.code).toBe(2);
      expectNoRawControl(r);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      if (json) expect(JSON.parse(r.stderr).error.message).toContain(EVIL);
      else expect(r.stderr).toBe(`hubctl: listing policies of org ${ORG}: invalid_argument: ${EVIL_SHOWN}\n`);
    }
  });

  it('a policy name in a confirmation question is escaped', async () => {
    const r = await h.run(['policy', 'delete', policy.id], {
      tty: true,
      prompter: {
        secret: async () => '',
        text: async () => '',
        confirm: async (q) => {
          expect(q).toContain(EVIL);
          return false;
        },
      },
    });
    expectNoRawControl(r);
  });
});

describe('access tokens', () => {
  it('token create answering {uuid: null, token: 12}: exit 7, and nothing printed as a secret', async () => {
    h.hub.inject({ method: 'POST', path: '/v2/access-tokens' }, [
      { status: 201, body: { uuid: null, token: 12 } },
    ]);
    const r = await h.run(['token', 'create', '--label', 'ci', '--scope', 'repo:read']);
    expectCleanFailure(
      r,
      7,
      /^hubctl: creating an access token: unexpected answer from 127\.0\.0\.1:\d+: uuid: expected string, got null/,
    );
  });

  it.each([
    ...NOT_AN_OBJECT,
    ['a token without its secret', token()],
    ['an empty secret', token({ token: '' })],
    ['is_active as a string', token({ token: 'hub_pat_x', is_active: 'yes' })],
  ])('token create, %s: exit 7', async (_what, body) => {
    h.hub.inject({ method: 'POST', path: '/v2/access-tokens' }, [{ status: 201, body }]);
    const r = await h.run(['token', 'create', '--label', 'ci', '--scope', 'repo:read']);
    expectCleanFailure(r, 7, /^hubctl: creating an access token: unexpected answer/);
  });

  it.each([
    ...NOT_AN_OBJECT,
    ['results: "abc"', { count: 1, next: null, previous: null, results: 'abc' }],
    ['results: [null]', { count: 1, next: null, previous: null, results: [null] }],
    ['a count that is a string', { count: '1', next: null, previous: null, results: [] }],
    ['a next link that is a number', { count: 1, next: 2, previous: null, results: [token()] }],
    [
      'scopes as a string',
      { count: 1, next: null, previous: null, results: [token({ scopes: 'repo:read' })] },
    ],
  ])('token list (one page and --all), %s: exit 7', async (_what, body) => {
    for (const argv of [
      ['token', 'list'],
      ['token', 'list', '--all'],
    ]) {
      h.hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [{ status: 200, body }]);
      expectCleanFailure(await h.run(argv), 7, /^hubctl: listing access tokens: unexpected answer/);
    }
  });

  it('token get of the wrong shape: exit 7', async () => {
    const uuid = token().uuid;
    h.hub.inject({ method: 'GET', path: `/v2/access-tokens/${uuid}` }, [
      { status: 200, body: token({ uuid: 5 }) },
    ]);
    expectCleanFailure(
      await h.run(['token', 'get', uuid]),
      7,
      /reading access token .*: unexpected answer .*uuid/,
    );
  });

  it('labels with escape sequences are escaped in the list, piped and on a terminal', async () => {
    const page = {
      count: 1,
      next: null,
      previous: null,
      results: [token({ token_label: EVIL, token: 'hub_pat_***' })],
    };
    for (const tty of [false, true]) {
      h.hub.inject({ method: 'GET', path: '/v2/access-tokens' }, [{ status: 200, body: page }]);
      const r = await h.run(['token', 'list', '--no-color'], { tty });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(EVIL_SHOWN);
      expectNoRawControl(r);
    }
  });
});

describe('the token exchange (auth login, auth status, any hub command)', () => {
  it.each([
    ...NOT_AN_OBJECT,
    ['no token', { expires_in: 600 }],
    ['a token that is a number', { access_token: 12 }],
    ['an empty token', { token: '' }],
  ])('answering %s: exit 7 from login, status and policy list', async (_what, body) => {
    for (const [argv, stdin] of [
      [['auth', 'login', '--username', 'alice', '--password-stdin'], 'alice-password\n'],
      [['auth', 'status'], undefined],
      [['policy', 'list'], undefined],
    ] as const) {
      h.hub.inject({ method: 'POST', path: '/v2/auth/token' }, [{ status: 200, body }]);
      const r = await h.run([...argv], { stdin });
      expectCleanFailure(r, 7, /^hubctl: signing in as alice: unexpected answer from 127\.0\.0\.1:\d+: /);
    }
  });

  it('a refusal whose message forges a line is one escaped line (exit 4)', async () => {
    h.hub.inject({ method: 'POST', path: '/v2/auth/token' }, [
      { status: 401, body: { message: EVIL, errinfo: null } },
    ]);
    const r = await h.run(['auth', 'status']);
    expect(r.code).toBe(4);
    expectNoRawControl(r);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('hubctl:'))).toHaveLength(1);
  });
});

describe('a hostile registry: image tags and image inspect', () => {
  let reg: Awaited<ReturnType<typeof startHostileServer>>;
  beforeAll(async () => {
    reg = await startHostileServer();
  });
  afterAll(() => reg.close());
  const sha = (b: string | Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
  const OCI = 'application/vnd.oci.image.manifest.v1+json';

  /** Answers /v2/ with 200 (no auth), the tag list and manifest :1 as given, blobs from a map. */
  function serve(tags: unknown, manifest: unknown, blobs: Record<string, Buffer> = {}) {
    reg.answer((req, res) => {
      if (req.url === '/v2/') return reply(res, 200, {});
      if (req.url === '/v2/team/app/tags/list') return reply(res, 200, tags);
      if (req.url === '/v2/team/app/manifests/1') {
        const bytes = typeof manifest === 'string' ? manifest : JSON.stringify(manifest);
        return reply(res, 200, bytes, { 'content-type': OCI });
      }
      const blob = Object.entries(blobs).find(([d]) => req.url === `/v2/team/app/blobs/${d}`);
      if (blob) return reply(res, 200, blob[1], { 'content-type': 'application/octet-stream' });
      reply(res, 404, { errors: [{ code: 'NOT_FOUND', message: EVIL }] });
    });
  }

  it.each([...NOT_AN_OBJECT, ['tags: "abc"', { tags: 'abc' }], ['tags: [1]', { tags: [1] }]])(
    'image tags, %s: exit 7',
    async (_what, body) => {
      serve(body, {});
      const r = await h.run(['image', 'tags', `${reg.host}/team/app`]);
      expectCleanFailure(r, 7, /^hubctl: listing tags of .*: unexpected answer from 127\.0\.0\.1:\d+/);
    },
  );

  it('image tags with escape sequences in tag names: exit 0, escaped', async () => {
    serve({ name: 'team/app', tags: ['v1', EVIL] }, {});
    const r = await h.run(['image', 'tags', `${reg.host}/team/app`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`v1\n${EVIL_SHOWN}\n`);
    expectNoRawControl(r);
  });

  const config = { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha('{}'), size: 2 };
  it.each([
    ['null', 'null', 'the manifest is not a JSON object'],
    ['an array', '[]', 'the manifest is not a JSON object'],
    ['not JSON', '{"schemaVersion":', 'the manifest is not valid JSON'],
    [
      'a config digest that climbs out of a layout',
      { config: { ...config, digest: 'sha256:../../etc/passwd' } },
      'config\\.digest: expected a sha256 digest',
    ],
    [
      'a layer size that is a string',
      { config, layers: [{ ...config, size: '12' }] },
      'layers\\[0\\]\\.size: expected number',
    ],
    ['a negative layer size', { config, layers: [{ ...config, size: -1 }] }, 'layers\\[0\\]\\.size'],
    ['layers: {}', { config, layers: {} }, 'layers: expected Array'],
    [
      'an index entry that is null',
      { mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [null] },
      'manifests\\[0\\]: expected Object, got null',
    ],
  ])('image inspect, %s: exit 7', async (_what, manifest, detail) => {
    serve(
      { tags: [] },
      typeof manifest === 'string' ? manifest : { schemaVersion: 2, mediaType: OCI, ...manifest },
    );
    const r = await h.run(['image', 'inspect', `${reg.host}/team/app:1`]);
    expectCleanFailure(r, 7, new RegExp(`unexpected answer from 127\\.0\\.0\\.1:\\d+: .*${detail}`));
  });

  it('image inspect with a config blob that is not a JSON object: exit 7', async () => {
    for (const blob of ['null', 'nope', '{"os": 5}']) {
      const cfg = { ...config, digest: sha(blob), size: blob.length };
      serve(
        { tags: [] },
        { schemaVersion: 2, mediaType: OCI, config: cfg, layers: [] },
        { [cfg.digest]: Buffer.from(blob) },
      );
      const r = await h.run(['image', 'inspect', `${reg.host}/team/app:1`]);
      expectCleanFailure(r, 7, /image config/);
    }
  });

  it('image inspect: escape sequences in media types and a 404 message are escaped', async () => {
    const evilConfig = { ...config, mediaType: EVIL };
    serve(
      { tags: [] },
      { schemaVersion: 2, mediaType: OCI, config: evilConfig, layers: [{ ...evilConfig }] },
      {
        [config.digest]: Buffer.from('{}'),
      },
    );
    const ok = await h.run(['image', 'inspect', `${reg.host}/team/app:1`], { tty: true });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(EVIL_SHOWN.slice(0, 20));
    expectNoRawControl({ ...ok, stdout: ok.stdout.replace(/\u001b\[\d+m/g, '') });
    const missing = await h.run(['image', 'inspect', `${reg.host}/team/app:2`]);
    expect(missing.code).toBe(5);
    expectNoRawControl(missing);
    expect(missing.stderr.split('\n').filter((l) => l.startsWith('hubctl:'))).toHaveLength(1);
  });
});
