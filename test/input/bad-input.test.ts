// The bad-input corpus, part 1: every pure parser, each bad value with its exit code and the
// sentence that names it. (Part 2, bad-options.test.ts, runs options through the whole CLI.)
import { describe, expect, it } from 'vitest';
import { positiveInt } from '../../src/commands/host.js';
import { parseExpiry } from '../../src/commands/token/values.js';
import { assertProfileName, checkBaseUrl, checkOrg } from '../../src/config/values.js';
import { ExitCode, HubctlError } from '../../src/errors.js';
import { parsePlatform } from '../../src/image/platform.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { parseDestination, parseResource } from '../../src/policy/resource.js';
import { assertDigest, parseReference } from '../../src/ref/reference.js';
import { parsePlace } from '../../src/ref/transport.js';

/** Runs a parser on a bad value: the typed error it throws (a test failure if it returns). */
async function refusal(parse: () => unknown): Promise<HubctlError> {
  let result: unknown;
  try {
    result = await parse();
  } catch (err) {
    if (err instanceof HubctlError) return err;
    throw new Error(`not a typed error: ${String(err)}`);
  }
  throw new Error(`accepted: ${JSON.stringify(result)?.slice(0, 120)}`);
}

type Case = [input: string, reason: string];
const q = JSON.stringify;
/** How the image and policy parsers quote a value: as typed, between double quotes. */
const raw = (s: string) => `"${s}"`;
const NOW = Date.parse('2026-11-24T12:00:00Z');

interface Group {
  name: string;
  parse: (input: string) => unknown;
  /** The start of every message of the group. */
  prefix: (input: string) => string;
  exit?: number;
  cases: Case[];
}

const HEX = 'a'.repeat(64);

const groups: Group[] = [
  {
    name: 'image references',
    parse: (s) => parseReference(s),
    prefix: (s) => `invalid reference ${raw(s)}: `,
    cases: [
      ['', 'the reference is empty'],
      [' ', 'the reference is empty'],
      ['app:', 'tag "" must match'],
      ['app@', 'digest "" must be "sha256:"'],
      ['app@sha256:xyz', 'must be "sha256:" followed by 64 lowercase hex digits'],
      [`app@sha256:${'a'.repeat(63)}`, 'followed by 64 lowercase hex digits'],
      [`app@sha256:${'A'.repeat(64)}`, 'followed by 64 lowercase hex digits'],
      ['app@md5:abcd', 'digest "md5:abcd"'],
      [`a/b/c:t@sha256:${'g'.repeat(64)}`, '64 lowercase hex digits'],
      ['a//b', 'empty path component'],
      ['/app', 'empty path component'],
      ['app/', 'empty path component'],
      ['team//app:1', 'empty path component'],
      ['host:99999999/app', 'registry port "99999999" must be a number from 1 to 65535'],
      ['localhost:/app', 'registry port "" must be a number'],
      ['registry.example.com:0/app', 'registry port "0"'],
      ['app:tag:tag', 'path component "app:tag" must match'],
      ['a'.repeat(300), 'the name is 318 characters long'],
      [`app:${'t'.repeat(200)}`, 'must match [\\w][\\w.-]{0,127}'],
      ['ex ample/app', 'cannot contain spaces'],
      ['app :1', 'cannot contain spaces'],
      ['-app', 'path component "-app" must match'],
      ['app-', 'path component "app-" must match'],
      ['_/app', 'path component "_" must match'],
      ['team/App', 'must be lowercase'],
      ['ÄPP', 'must be lowercase'],
      ['app..x/y', 'registry "app..x" is not a valid host name'],
      ['[::1/app', 'registry "[::1" is not a valid host'],
      ['app:-tag', 'tag "-tag" must match'],
      ['app:.tag', 'tag ".tag" must match'],
      ['app:ta g', 'cannot contain spaces'],
      ['https://docker.io/app', 'a reference has no scheme'],
      ['http://localhost:5000/app', 'a reference has no scheme'],
      ['team/app__x', 'must match'],
      ['team/app...x', 'must match'],
    ],
  },
  {
    name: 'image locations',
    parse: (s) => parsePlace(s),
    prefix: () => '',
    cases: [
      ['oci:', 'invalid location "oci:": the directory is empty'],
      ['oci::tag', 'the directory is empty'],
      ['oci:dir:', 'tag "" must match'],
      ['oci:dir:-x', 'tag "-x" must match'],
      ['docker-archive:', 'the file name is empty'],
    ],
  },
  {
    name: 'digests',
    parse: (s) => assertDigest(s),
    prefix: (s) => `invalid digest ${raw(s)}: `,
    cases: [
      ['', 'a digest is "sha256:" followed by 64 lowercase hex digits'],
      ['sha256:', '64 lowercase hex digits'],
      ['sha256:abc', '64 lowercase hex digits'],
      [`sha256:${'A'.repeat(64)}`, 'lowercase'],
      [`sha512:${'a'.repeat(128)}`, 'sha256:'],
      [`md5:${'a'.repeat(32)}`, 'sha256:'],
      [`sha256:${'a'.repeat(65)}`, '64 lowercase'],
      [`sha256:${'a'.repeat(63)}g`, '64 lowercase'],
      [`SHA256:${HEX}`, '64 lowercase'],
      [` sha256:${HEX}`, '64 lowercase'],
      [`sha256:${HEX} `, '64 lowercase'],
      [`sha256:${HEX}\n`, '64 lowercase'],
      [HEX, '64 lowercase'],
      [`sha256-${HEX}`, '64 lowercase'],
    ],
  },
  {
    name: 'network rule resources (hostnames, wildcards, CIDRs, ports)',
    parse: (s) => parseResource('network', s),
    prefix: (s) => `invalid network resource ${raw(s)}: `,
    cases: [
      ['', 'it is empty; allowed: a hostname'],
      [' ', 'it contains whitespace'],
      ['a b.com', 'it contains whitespace'],
      ['a.com\t', 'it contains whitespace'],
      ['*', '"*" alone is not a pattern'],
      ['*.', 'the host is empty'],
      ['a..b', 'it has an empty label'],
      ['-a.com', 'a label cannot start or end with "-"'],
      ['a-.com', 'a label cannot start or end with "-"'],
      ['a.com:', 'the port is empty'],
      ['a.com:0', 'port 0 is outside 1–65535'],
      ['a.com:65536', 'port 65536 is outside 1–65535'],
      ['a.com:99999999999', 'port "99999999999" is not a number from 1 to 65535'],
      ['a.com:-1', 'port "-1" is not a number'],
      ['a.com:x', 'port "x" is not a number'],
      ['1.2.3.4:80-70', 'port "80-70" is not a number'],
      ['1.2.3.4/33', 'an IPv4 prefix length is 0–32, not 33'],
      ['10.0.0.0/99', 'an IPv4 prefix length is 0–32'],
      ['1.2.3.4/-1', 'CIDR prefix length "-1" is not a number'],
      ['1.2.3.4/', 'CIDR prefix length "" is not a number'],
      ['1.2.3.4/x', 'CIDR prefix length "x" is not a number'],
      ['1.2.3.256/8', '"1.2.3.256" is not a valid IPv4 address'],
      ['::1/129', 'an IPv6 prefix length is 0–128, not 129'],
      ['[::1', 'a "[" without its "]"'],
      ['::1]:80', 'is not a valid IPv6 address'],
      ['[::g]:80', '"::g" is not a valid IPv6 address'],
      ['[1:2:3:4:5:6:7:8:9]:80', 'is not a valid IPv6 address'],
      ['é.com', 'write internationalized names in punycode'],
      ['a.com/path', 'a resource has no path'],
      ['http://a.com', 'a resource names a host, not a URL'],
      ['https://a.com/x', 'a resource names a host, not a URL'],
      ['*.*.com', 'a wildcard is allowed only as the whole first label'],
      ['a*.com', 'a wildcard is allowed only as the whole first label'],
      ['a.*.com', 'a wildcard is allowed only as the whole first label'],
      [`${'x'.repeat(64)}.com`, 'a label has at most 63 characters'],
      [`${'a.'.repeat(130)}com`, 'a hostname has at most 253 characters'],
    ],
  },
  {
    name: 'filesystem rule resources (paths)',
    parse: (s) => parseResource('filesystem', s),
    prefix: (s) => `invalid filesystem resource ${raw(s)}: `,
    cases: [
      ['', 'it is empty'],
      [' ', 'it is relative'],
      ['relative/path', 'it is relative'],
      ['../x', 'it is relative'],
      ['./x', 'it is relative'],
      ['C:\\x', 'it is relative'],
      ['*.log', 'it is relative'],
      ['~user/x', '"~user" is not supported'],
      ['/a/../b', '".." is not allowed in a rule'],
      ['/..', '".." is not allowed'],
      ['~/../etc', '".." is not allowed'],
      ['/a\u0000b', 'it contains a NUL character'],
      ['/a/***', '"**" must be a whole segment, not part of "***"'],
      ['/a/b**', '"**" must be a whole segment'],
      ['/a/**b', '"**" must be a whole segment'],
    ],
  },
  {
    name: 'network destinations (policy eval)',
    parse: (s) => parseDestination('network', s),
    prefix: (s) => `invalid network destination ${raw(s)}: `,
    cases: [
      ['', 'it is empty'],
      [' ', 'it contains whitespace'],
      ['a b:80', 'it contains whitespace'],
      ['a.com:', 'the port is empty'],
      ['a.com:99999', 'port 99999 is outside 1–65535'],
      ['1.2.3.4:0', 'port 0 is outside 1–65535'],
      ['http://', 'the URL has no host'],
      [':80', 'the host is empty'],
    ],
  },
  {
    name: 'filesystem destinations (policy eval)',
    parse: (s) => parseDestination('filesystem', s),
    prefix: (s) => `invalid filesystem path ${raw(s)}: `,
    cases: [
      ['', 'it is empty'],
      ['relative', 'it is relative'],
      ['a/b', 'it is relative'],
      ['/a\u0000', 'it contains a NUL character'],
    ],
  },
  {
    name: 'platforms',
    parse: (s) => parsePlatform(s),
    prefix: (s) => `invalid platform ${raw(s)}: `,
    cases: [
      '',
      'linux',
      'linux/',
      '/amd64',
      'linux/amd64/v8/x',
      'Linux/AMD64',
      'linux/amd 64',
      'linux//amd64',
      '/',
      '//',
      'linux/amd64/',
      'linux\\amd64',
      'linux/amd64\n',
    ].map((p): Case => [p, 'write os/arch or os/arch/variant (linux/arm64/v8)']),
  },
  {
    name: 'profile names',
    parse: (s) => assertProfileName(s, '--profile'),
    prefix: (s) => `--profile ${q(s)} is not valid: `,
    cases: [
      '__proto__',
      '',
      '.hidden',
      '-x',
      '_x',
      'a b',
      'x'.repeat(65),
      'ü',
      'a/b',
      '../x',
      'a\nb',
      'a:b',
      'a@b',
      '\u001b[31m',
    ].map(
      (p): Case => [p, 'use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)'],
    ),
  },
  {
    name: 'organization names',
    parse: (s) => checkOrg(s, '--org'),
    prefix: () => '--org ',
    cases: [
      ['', 'cannot be empty'],
      [' ', 'is not an organization name'],
      ['a b', 'is not an organization name'],
      ['a/b', 'is not an organization name'],
      ['../admin', 'is not an organization name'],
      ['acme?x=1', 'is not an organization name'],
      ['acme#x', 'is not an organization name'],
      ['-acme', 'is not an organization name'],
      ['x'.repeat(256), 'is not an organization name'],
      ['acme\u0000', 'is not an organization name'],
    ],
  },
  {
    name: 'base URLs',
    parse: (s) => checkBaseUrl(s, '--base-url'),
    // A user name and password are shown as *** (issue 20 item 3).
    prefix: (s) =>
      `--base-url ${q((s.length > 80 ? `${s.slice(0, 77)}...` : s).replace(/\/\/[^/]*@/, '//***@'))} `,
    cases: [
      ['not a url', 'is not a valid URL'],
      ['', 'is not a valid URL'],
      ['hub.docker.com', 'is not a valid URL'],
      ['//hub.docker.com', 'is not a valid URL'],
      ['http//x', 'is not a valid URL'],
      ['https://', 'is not a valid URL'],
      ['http://[::1', 'is not a valid URL'],
      ['https://exa mple.com', 'is not a valid URL'],
      ['https://x:99999', 'is not a valid URL'],
      ['ftp://x', 'is not an http:// or https:// address'],
      ['file:///etc/passwd', 'is not an http:// or https:// address'],
      ['javascript:alert(1)', 'is not an http:// or https:// address'],
      ['data:text/plain,x', 'is not an http:// or https:// address'],
      ['ws://x', 'is not an http:// or https:// address'],
      ['https://user:pass@hub.example.com', 'carries a user name or password'],
      ['https://user@hub.example.com', 'carries a user name or password'],
      ['https://hub.example.com/?x=1', 'has a query or fragment'],
      ['https://hub.example.com/#top', 'has a query or fragment'],
      [`https://${'a'.repeat(3000)}.com`, 'is longer than 2048 characters'],
    ],
  },
  {
    name: 'expiry dates and durations',
    parse: (s) => parseExpiry(s, NOW),
    prefix: () => '--expires ',
    cases: [
      ['2027-02-30', '2027-02-30 is not a calendar date'],
      ['2027-02-29', 'is not a calendar date'],
      ['2027-04-31', 'is not a calendar date'],
      ['2027-13-01', 'is not a calendar date'],
      ['2027-00-10', 'is not a calendar date'],
      ['2027-01-00', 'is not a calendar date'],
      ['2027-01-32', 'is not a calendar date'],
      ['2027-01-31T25:00', 'takes a duration (30d, 12h, 2w) or a date'],
      ['2027-01-31T10:61', 'takes a duration'],
      ['99999999999999d', 'is too far away: at most 100 years'],
      ['9999999999999999999999w', 'is too far away'],
      ['36501d', 'is too far away'],
      ['9999-12-31', 'is too far away'],
      ['2020-01-01', 'must lie in the future'],
      ['0d', 'must lie in the future'],
      ['0m', 'must lie in the future'],
      ['', 'takes a duration'],
      ['30', 'takes a duration'],
      ['30x', 'takes a duration'],
      ['d', 'takes a duration'],
      ['-1d', 'takes a duration'],
      ['1.5d', 'takes a duration'],
      ['30 days', 'takes a duration'],
      ['tomorrow', 'takes a duration'],
      ['27-01-31', 'takes a duration'],
      ['2027/01/31', 'takes a duration'],
      ['2027-1-31', 'takes a duration'],
      ['1e3d', 'takes a duration'],
      ['0x10d', 'takes a duration'],
    ],
  },
  {
    name: 'page numbers and sizes',
    parse: (s) => positiveInt('--page')(s),
    prefix: () => '--page must be a whole number from 1 to 1000000 (got ',
    cases: [
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      ' 1',
      '1 ',
      '',
      'one',
      '99999999999999999999999',
      '1000001',
      '+1',
      'NaN',
      'Infinity',
      '١',
    ].map((v): Case => [v, '']),
  },
];

const YAML_CASES: Case[] = [
  ['rules:\n  - resources: [*.example.com]\n', '*.example.com is read by YAML as an alias'],
  [
    'name: x\nrules:\n  - actions: [connect:tcp]\n    resources:\n      - *.example.com\n',
    'quote it: "*.example.com"',
  ],
  [
    Array.from({ length: 8 }, (_, i) =>
      i === 0
        ? 'a0: &a0 [x, x, x, x, x, x, x, x, x]'
        : `a${i}: &a${i} [${Array(9)
            .fill(`*a${i - 1}`)
            .join(', ')}]`,
    ).join('\n'),
    'the alias *a0 is inside an anchored node (an alias bomb?); did you mean to write the values out?',
  ],
  ['a: [1, 2\n', 'not valid YAML'],
  ['a: "unterminated\n', 'not valid YAML'],
  ['a: b: c\n', 'not valid YAML'],
  ['{ "name": 1', 'not valid JSON'],
  ['key: &x\n  - 1\nother: *y\n', 'read by YAML as an alias'],
];

describe('bad-input corpus: parsers', () => {
  for (const g of groups) {
    describe(g.name, () => {
      it.each(g.cases)('%j', async (input, reason) => {
        const err = await refusal(() => g.parse(input));
        expect(err.exitCode).toBe(g.exit ?? ExitCode.USAGE);
        expect(err.message.startsWith(g.prefix(input)), err.message).toBe(true);
        expect(err.message).toContain(reason);
        // One line: the sentence never carries a stack or a second line of its own.
        expect(err.message.replace(input, '')).not.toContain('\n');
      });
    });
  }

  describe('YAML and JSON policy documents', () => {
    it.each(YAML_CASES)('%j', async (text, reason) => {
      const name = text.startsWith('{') ? 'policy.json' : 'policy.yaml';
      const started = performance.now();
      const err = await refusal(() => parsePolicyDocument(text, name));
      expect(performance.now() - started).toBeLessThan(2000);
      expect(err.exitCode).toBe(ExitCode.USAGE);
      expect(err.message).toMatch(new RegExp(`^${name}(:\\d+){0,2}: `));
      expect(err.message).toContain(reason);
    });

    it('refuses a document over 16 MiB before parsing it', async () => {
      const err = await refusal(() => parsePolicyDocument(`# ${'x'.repeat(16 * 1024 * 1024)}\n`, 'big.yaml'));
      expect(err.message).toBe('big.yaml: is larger than 16 MiB');
    });
  });

  it('holds at least 300 cases across the two files', () => {
    const here = groups.reduce((n, g) => n + g.cases.length, 0) + YAML_CASES.length;
    expect(here).toBeGreaterThanOrEqual(200);
  });
});
