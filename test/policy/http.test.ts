// HTTP (L7) rules, evaluated offline (issue 14): path wildcards, canonical paths, and the layering
// of network and HTTP rules.
import { describe, expect, it } from 'vitest';
import { BatchProcessor } from '../../src/policy/batch.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { matchHttpPath, PathBounds, pathBounds } from '../../src/policy/http.js';

type Rule = Record<string, unknown>;
const net = (name: string, decision: string, resources: string[]): Rule => ({
  name,
  actions: ['connect:tcp'],
  decision,
  resources,
});
const http = (name: string, actions: string[], decision: string, path: string, host = 'api.test'): Rule => ({
  name,
  actions,
  decision,
  http_resources: [{ host, path }],
});

async function setOf(...rules: Rule[]) {
  return compilePolicies(await parsePolicyDocument(JSON.stringify({ name: 'p', rules }), 'p.json'));
}

describe('HTTP paths', () => {
  it.each<[string, string, boolean]>([
    ['/repos/*', '/repos/x', true],
    ['/repos/*', '/repos', false],
    ['/repos/*', '/repos/x/y', false],
    ['/repos/**', '/repos', true],
    ['/repos/**', '/repos/x/y/z', true],
    ['/repos/**', '/reposx', false],
    ['/**', '/', true],
    ['/', '/', true],
    ['/', '/a', false],
    ['/repos', '/repos', true],
    ['/repos', '/repos/x', false],
    ['/**/issues', '/a/b/issues', true],
    ['/**/issues', '/issues', true],
    ['/**/issues/*', '/a/issues/b/issues/1', true],
    ['/*/x/**', '/a/x', true],
    ['/*/x/**', '/x', false],
  ])('%s matches %s: %s', (pattern, path, want) => {
    const b = new PathBounds();
    expect(pathBounds(path, 0, b)).toBe(true);
    expect(matchHttpPath(pattern === '/' ? [] : pattern.slice(1).split('/'), path, b)).toBe(want);
  });
});

describe('layering of network and HTTP rules', () => {
  const U = 'https://api.test/repos/x';
  it.each<[string, Rule[], string, string, string]>([
    [
      'a network allow alone allows every method',
      [net('n', 'allow', ['api.test'])],
      'request:delete',
      U,
      'allow',
    ],
    [
      'an HTTP allow alone allows what it matches',
      [http('h', ['request:get'], 'allow', '/repos/*')],
      'request:get',
      U,
      'allow',
    ],
    [
      'an HTTP allow alone: not another method',
      [http('h', ['request:get'], 'allow', '/repos/*')],
      'request:post',
      U,
      'deny',
    ],
    [
      'an HTTP allow alone: not another path',
      [http('h', ['request:get'], 'allow', '/repos/*')],
      'request:get',
      'https://api.test/user',
      'deny',
    ],
    [
      'an HTTP allow alone: not another host',
      [http('h', ['request:get'], 'allow', '/**')],
      'request:get',
      'https://other.test/repos/x',
      'deny',
    ],
    [
      'a network allow plus an HTTP deny is a carve-out',
      [net('n', 'allow', ['api.test']), http('h', ['request:delete'], 'deny', '/repos/**')],
      'request:delete',
      U,
      'deny',
    ],
    [
      'the carve-out leaves other methods allowed',
      [net('n', 'allow', ['api.test']), http('h', ['request:delete'], 'deny', '/repos/**')],
      'request:get',
      U,
      'allow',
    ],
    [
      'a network deny blocks and no HTTP allow reopens it',
      [net('n', 'deny', ['api.test']), http('h', ['request:get'], 'allow', '/**')],
      'request:get',
      U,
      'deny',
    ],
    [
      'HTTP rules see the port: a rule without port takes every port',
      [http('h', ['request:get'], 'allow', '/**')],
      'request:get',
      'http://api.test:8080/x',
      'allow',
    ],
    [
      'a connect:udp rule is not the connection of a request',
      [{ ...net('n', 'allow', ['api.test']), actions: ['connect:udp'] }],
      'request:get',
      U,
      'deny',
    ],
  ])('%s', async (_what, rules, action, destination, want) => {
    expect(evaluate(await setOf(...rules), action, destination).decision).toBe(want);
  });

  it('never matches traffic that is not HTTP', async () => {
    const set = await setOf(http('h', ['request:get', 'request:connect'], 'allow', '/**'));
    expect(evaluate(set, 'connect:tcp', 'api.test').decision).toBe('deny');
    expect(evaluate(set, 'connect:tcp', 'api.test').matched).toEqual([]);
  });

  it('with --explain, names the rule and the layer of each match', async () => {
    const set = await setOf(
      net('n', 'allow', ['api.test']),
      http('h', ['request:delete'], 'deny', '/repos/**'),
      {
        ...http('port', ['request:delete'], 'deny', '/repos/x'),
        http_resources: [{ host: '*.test', port: 443, path: '/repos/x' }],
      },
    );
    const r = evaluate(set, 'request:delete', U, { explain: true });
    expect(r.reason).toBe('denied by rule "h" of policy "p" and 1 more rule');
    expect(r.matched.map((m) => [m.rule, m.resource, m.why])).toEqual([
      [
        'n',
        'api.test',
        'network layer (the connection, every method): host api.test is exactly api.test; any port (443)',
      ],
      [
        'h',
        'api.test/repos/**',
        'HTTP layer: host api.test is exactly api.test; any port (443); path /repos/** matches /repos/x',
      ],
      [
        'port',
        '*.test:443/repos/x',
        'HTTP layer: "*.test" matches one label ("api") below test; port 443; path /repos/x is exactly /repos/x',
      ],
    ]);
  });
});

describe('HTTP requests', () => {
  it.each([
    ['https://api.test/a?x=1', 'a path has no query'],
    ['https://api.test?x=1', 'a path has no query'],
    ['https://api.test/a#f', 'a path has no fragment'],
    ['https://api.test/%61', 'percent-encoding'],
    ['https://api.test/a/../b', 'a path has no ".." segment'],
    ['https://api.test/./b', 'a path has no "." segment'],
    ['https://api.test//a', 'a path has no repeated "/"'],
    ['https://api.test/a/', 'a path has no trailing "/"'],
    ['https://api.test/é', 'a path is printable ASCII'],
    ['https://api.test\\@evil.test/', 'a backslash in a URL'],
    ['api.test/a', 'it is not an http:// or https:// URL'],
    ['ssh://api.test/a', 'it is not an http:// or https:// URL'],
  ])('refuses %j (%s)', async (destination, problem) => {
    const set = await setOf(net('n', 'allow', ['**']));
    expect(() => evaluate(set, 'request:get', destination)).toThrow(problem);
  });

  it('reads the scheme as a URL parser does, whether the request is read in place or parsed', async () => {
    // in place only for `http://` and `https://` in lower case; every other spelling is parsed
    const set = await setOf(net('all', 'allow', ['api.test:80']), net('tls', 'deny', ['api.test:443']));
    const cases: [string, string][] = [
      ['http://api.test/a', 'allow'],
      ['https://api.test/a', 'deny'],
      ['HTTP://api.test/a', 'allow'],
      ['Https://api.test/a', 'deny'],
      ['http://api.test', 'allow'],
      ['https://api.test:80/a', 'allow'],
    ];
    for (const [d, want] of cases) expect(evaluate(set, 'request:get', d).decision, d).toBe(want);
    for (const d of [
      'http:/api.test/a',
      'http:api.test/a',
      'httpx://api.test/a',
      'htt://api.test/a',
      'http',
      '',
    ]) {
      expect(() => evaluate(set, 'request:get', d), d).toThrow(/invalid HTTP request|not an http/);
    }
  });

  it('reads the host as a URL parser does: numeric forms are the address', async () => {
    const set = await setOf(net('all', 'allow', ['**']), net('meta', 'deny', ['169.254.169.254/32']));
    for (const d of ['http://0xa9fea9fe/latest', 'http://2852039166/', 'http://[::ffff:a9fe:a9fe]/x']) {
      expect(evaluate(set, 'request:get', d).decision, d).toBe('deny');
    }
  });

  it('decides request lines in --batch (text and JSON), an error record for a bad path', async () => {
    const set = await setOf(
      net('n', 'allow', ['api.test']),
      http('h', ['request:delete'], 'deny', '/repos/**'),
    );
    const p = new BatchProcessor(set);
    const input = [
      '{"action":"request:delete","destination":"https://api.test/repos/x"}',
      'request:get https://api.test/repos/x',
      'request:get https://api.test/repos/x?y',
    ].join('\n');
    const out = Buffer.from(p.pushBytes(Buffer.from(`${input}\n`)) ?? [])
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((l) => l.decision ?? l.error.message)).toEqual([
      'deny',
      'allow',
      expect.stringContaining('a path has no query'),
    ]);
    expect(p.counts).toEqual({ total: 3, denied: 1, errors: 1 });
  });
});
