import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { parseDestination, parseResource } from '../../src/policy/resource.js';

// [resource, canonical form]
const GOOD_NETWORK: [string, string][] = [
  ['example.com', 'example.com'],
  ['EXAMPLE.com', 'example.com'],
  ['example.com.', 'example.com'],
  ['localhost', 'localhost'],
  ['api.github.com', 'api.github.com'],
  ['a-b.c_d.example', 'a-b.c_d.example'],
  ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ['registry.npmjs.org:443', 'registry.npmjs.org:443'],
  ['example.com:1', 'example.com:1'],
  ['example.com:65535', 'example.com:65535'],
  ['Example.COM.:8080', 'example.com:8080'],
  ['*.example.com', '*.example.com'],
  ['*.EXAMPLE.com.', '*.example.com'],
  ['**.example.com', '**.example.com'],
  ['*.com', '*.com'],
  ['**.internal', '**.internal'],
  ['*.example.com:443', '*.example.com:443'],
  ['**.example.com:22', '**.example.com:22'],
  ['**', '**'],
  ['**:443', '**:443'],
  ['10.0.0.0/8', '10.0.0.0/8'],
  ['0.0.0.0/0', '0.0.0.0/0'],
  ['169.254.169.254/32', '169.254.169.254'],
  ['192.168.1.0/24', '192.168.1.0/24'],
  ['10.1.2.3', '10.1.2.3'],
  ['10.1.2.3:22', '10.1.2.3:22'],
  ['255.255.255.255', '255.255.255.255'],
  ['0.0.0.0', '0.0.0.0'],
  ['2001:db8::/32', '2001:db8::/32'],
  ['2001:DB8::/32', '2001:db8::/32'],
  ['::/0', '::/0'],
  ['fe80::/10', 'fe80::/10'],
  ['2001:db8::1', '2001:db8::1'],
  ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
  ['::1', '::1'],
  ['[::1]:22', '[::1]:22'],
  ['[2001:db8::1]', '2001:db8::1'],
  ['[2001:db8::1]:443', '[2001:db8::1]:443'],
  ['::ffff:10.1.2.3', '10.1.2.3'],
  ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
  ['::10.0.0.0/104', '10.0.0.0/8'],
  ['64:ff9b::a9fe:a9fe/128', '169.254.169.254'],
  ['64:ff9b::/96', '0.0.0.0/0'],
  ['[::169.254.169.254]:80', '169.254.169.254:80'],
  ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
  ['::/96', '::/96'],
  ['::1/128', '::1/128'],
  ['[::1]:80', '[::1]:80'],
  ['[::ffff:10.1.2.3]:22', '10.1.2.3:22'],
  ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
  ['1::', '1::'],
  ['1:0:0:1:0:0:0:1', '1:0:0:1::1'],
];

// [resource, a fragment of the error message]
const BAD_NETWORK: [string, string][] = [
  ['', 'empty'],
  [' example.com', 'whitespace'],
  ['exa mple.com', 'whitespace'],
  ['https://example.com', 'not a URL'],
  ['http://example.com/path', 'not a URL'],
  ['example.com/path', 'no path'],
  ['example.com:0', 'outside 1–65535'],
  ['example.com:65536', 'outside 1–65535'],
  ['example.com:99999', 'outside 1–65535'],
  ['example.com:', 'port is empty'],
  ['example.com:http', 'not a number'],
  ['example.com:-1', 'not a number'],
  ['example.com:123456', 'not a number'],
  ['api.*.example.com', 'first label'],
  ['example.*', 'first label'],
  ['*example.com', 'first label'],
  ['a*.example.com', 'first label'],
  ['*.*.example.com', 'first label'],
  ['***.example.com', 'first label'],
  ['*', '"*" alone'],
  ['*.', 'empty'],
  ['**.', 'empty'],
  ['*.10.0.0.1', 'not an IP'],
  ['example..com', 'empty label'],
  ['.example.com', 'empty label'],
  ['-example.com', 'start or end with "-"'],
  ['example-.com', 'start or end with "-"'],
  ['exa!mple.com', '"!"'],
  ['bücher.example', 'punycode'],
  [`${'a'.repeat(64)}.com`, '63 characters'],
  [`${'a.'.repeat(127)}com`, '253 characters'],
  ['user@example.com', 'user names'],
  ['10.0.0.1/8', 'host bits are set; the network is 10.0.0.0/8'],
  ['10.0.0.0/33', '0–32'],
  ['10.0.0.0/', 'not a number'],
  ['10.0.0.0/x', 'not a number'],
  ['10.0.0.0/8/9', 'no path'],
  ['10.0.0/8', 'not a valid IPv4'],
  ['256.1.1.1', 'not a valid IPv4'],
  ['10.1.2', 'not a valid IPv4'],
  ['010.1.2.3', 'not a valid IPv4'],
  ['1.2.3.4.5', 'not a valid IPv4'],
  ['2001:db8::1/32', 'host bits are set'],
  ['2001:db8::/129', '0–128'],
  ['2001:db8:::1', 'not a valid IPv6'],
  ['1::2::3', 'not a valid IPv6'],
  ['12345::1', 'not a valid IPv6'],
  ['fe80::1%eth0', 'zone ids'],
  ['[2001:db8::1', 'without its "]"'],
  ['[2001:db8::1]x', 'unexpected'],
  ['[example.com]:443', 'only for IPv6'],
  ['[::1]:0', 'outside 1–65535'],
  ['1:2:3:4:5:6:7:8:9', 'not a valid IPv6'],
  ['::ffff:10.0.0.1/104', 'host bits are set'],
  ['10.0.0.0/8:22', 'not a number'],
  ['*.example.com:0', 'outside 1–65535'],
  ['g:1:2', 'not a valid IPv6'],
];

const GOOD_FS: [string, string][] = [
  ['/', '/'],
  ['/data', '/data'],
  ['/data/', '/data'],
  ['//data///file', '/data/file'],
  ['/data/./file', '/data/file'],
  ['/data/**', '/data/**'],
  ['/data/**/**', '/data/**'],
  ['/**', '/**'],
  ['/var/log/*.log', '/var/log/*.log'],
  ['/var/*/log', '/var/*/log'],
  ['/a*b*c', '/a*b*c'],
  ['/*', '/*'],
  ['~', '~'],
  ['~/', '~'],
  ['~/src/**', '~/src/**'],
  ['~/.ssh/**', '~/.ssh/**'],
  ['~/.config/*.json', '~/.config/*.json'],
  ['/etc/passwd', '/etc/passwd'],
  ['/data/**/secret', '/data/**/secret'],
  ['/data/**/*.key', '/data/**/*.key'],
  ['/with space/file', '/with space/file'],
  ['/weird?[chars]', '/weird?[chars]'],
  ['/a/~/b', '/a/~/b'],
  ['/.hidden', '/.hidden'],
  ['/x/.../y', '/x/.../y'],
];

const BAD_FS: [string, string][] = [
  ['', 'empty'],
  ['data', 'relative'],
  ['./data', 'relative'],
  ['../data', 'relative'],
  ['data/**', 'relative'],
  ['*', 'relative'],
  ['**', 'relative'],
  ['~user/src', '"~user"'],
  ['~root', '"~user"'],
  ['/data/../etc', '".."'],
  ['/..', '".."'],
  ['~/..', '".."'],
  ['/data/a**', 'whole segment'],
  ['/data/**b', 'whole segment'],
  ['/data/x**y/z', 'whole segment'],
  ['/data/\0', 'NUL'],
  ['C:\\data', 'relative'],
  ['file:///etc', 'relative'],
  ['$HOME/src', 'relative'],
];

describe('network resources', () => {
  it.each(GOOD_NETWORK)('accepts %s', (value, canonical) => {
    const r = parseResource('network', value);
    expect(r.pattern.canonical).toBe(canonical);
  });
  it.each(BAD_NETWORK)('refuses %j', (value, fragment) => {
    let err: unknown;
    try {
      parseResource('network', value);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const msg = (err as Error).message;
    expect(msg).toContain(fragment);
    expect(msg).toContain(`"${value}"`);
    expect(msg).toContain('allowed:');
  });
  it('parses kinds, ports and prefixes', () => {
    expect(parseResource('network', '*.example.com:443').pattern).toMatchObject({
      kind: 'one',
      suffix: 'example.com',
      port: 443,
    });
    expect(parseResource('network', '**.Example.com').pattern).toMatchObject({ kind: 'many', port: 0 });
    expect(parseResource('network', '10.0.0.0/8').pattern).toMatchObject({
      kind: 'cidr',
      family: 4,
      prefix: 8,
    });
    expect(parseResource('network', '::ffff:10.0.0.0/104').pattern).toMatchObject({ family: 4, prefix: 8 });
    expect(parseResource('network', '10.1.2.3:22').pattern).toMatchObject({ prefix: 32, port: 22 });
    expect(parseResource('network', '[::1]:22').pattern).toMatchObject({ family: 6, prefix: 128, port: 22 });
  });
  it('returns frozen values', () => {
    expect(Object.isFrozen(parseResource('network', 'example.com').pattern)).toBe(true);
  });
});

describe('filesystem resources', () => {
  it.each(GOOD_FS)('accepts %j', (value, canonical) => {
    expect(parseResource('filesystem', value).pattern.canonical).toBe(canonical);
  });
  it.each(BAD_FS)('refuses %j', (value, fragment) => {
    expect(() => parseResource('filesystem', value)).toThrow(ValidationError);
    expect(() => parseResource('filesystem', value)).toThrow(fragment);
    expect(() => parseResource('filesystem', value)).toThrow('allowed:');
  });
  it('marks literal paths and home paths', () => {
    expect(parseResource('filesystem', '/data/x').pattern).toMatchObject({ literal: true, home: false });
    expect(parseResource('filesystem', '~/x/*').pattern).toMatchObject({ literal: false, home: true });
  });
});

describe('network destinations', () => {
  const cases: [string, string, number, number][] = [
    ['api.github.com', 'api.github.com', 443, 0],
    ['api.github.com:22', 'api.github.com', 22, 0],
    ['API.GitHub.com.', 'api.github.com', 443, 0],
    ['api.github.com.:80', 'api.github.com', 80, 0],
    ['https://api.github.com/repos?x=1', 'api.github.com', 443, 0],
    ['http://api.github.com', 'api.github.com', 80, 0],
    ['HTTP://user:pw@Api.github.com:8080/x', 'api.github.com', 8080, 0],
    ['ssh://git@github.com/org/repo', 'github.com', 22, 0],
    ['10.1.2.3', '10.1.2.3', 443, 4],
    ['10.1.2.3:22', '10.1.2.3', 22, 4],
    ['2001:db8::1', '2001:db8::1', 443, 6],
    ['[2001:DB8::1]:22', '2001:db8::1', 22, 6],
    ['::ffff:10.1.2.3', '10.1.2.3', 443, 4],
    ['[::ffff:10.1.2.3]:22', '10.1.2.3', 22, 4],
    ['[::ffff:a01:203]:22', '10.1.2.3', 22, 4],
    ['[::169.254.169.254]:80', '169.254.169.254', 80, 4],
    ['[::a9fe:a9fe]:80', '169.254.169.254', 80, 4],
    ['[64:ff9b::a9fe:a9fe]:80', '169.254.169.254', 80, 4],
    ['64:ff9b::10.1.2.3', '10.1.2.3', 443, 4],
    ['::0.0.0.2', '0.0.0.2', 443, 4],
    ['[::1]:80', '::1', 80, 6],
    ['::', '::', 443, 6],
    ['[64:ff9b:1::a9fe:a9fe]:80', '64:ff9b:1::a9fe:a9fe', 80, 6],
    ['https://[2001:db8::1]/x', '2001:db8::1', 443, 6],
    ['http://10.1.2.3/', '10.1.2.3', 80, 4],
    ['a.com.', 'a.com', 443, 0],
    ['a_b.c-d.com:8080', 'a_b.c-d.com', 8080, 0],
    ['a', 'a', 443, 0],
    ['0.0.0.0:1', '0.0.0.0', 1, 4],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`, 443, 0],
  ];
  it.each(cases)('%s → %s port %i', (value, host, port, family) => {
    const d = parseDestination('network', value);
    expect(d.dest).toMatchObject({ host, port, family });
  });
  const bad: [string, string][] = [
    ['', 'empty'],
    ['*.example.com', 'wildcards'],
    ['example.com/path', 'URL with a scheme'],
    ['example.com:0', 'outside 1–65535'],
    ['example.com:70000', 'outside 1–65535'],
    ['foo://example.com', 'default port'],
    ['https://', 'no host'],
    ['exa mple.com', 'whitespace'],
    ['10.0.0.1/8', 'URL with a scheme'],
    ['999.1.1.1', 'not a valid IPv4'],
    ['example..com', 'empty label'],
    ['[example.com]:22', 'only for IPv6'],
    // the fast path hands these to the full parser, which names the problem
    ['-a.com', 'start or end with "-"'],
    ['a-.com', 'start or end with "-"'],
    ['a.com-', 'start or end with "-"'],
    ['a.com-:443', 'start or end with "-"'],
    ['.', 'empty label'],
    ['.com', 'empty label'],
    ['a..', 'empty label'],
    ['a.com..', 'empty label'],
    [`${'a'.repeat(64)}.com`, '63 characters'],
    [`x.${'a'.repeat(64)}`, '63 characters'],
    [`${'a.'.repeat(127)}com`, '253 characters'],
    ['1.2.3.4.5', 'not a valid IPv4'],
    ['1.2.3.4:0', 'outside 1–65535'],
    ['x:', 'port is empty'],
    ['x:123456', 'not a number'],
  ];
  it.each(bad)('refuses %j', (value, fragment) => {
    expect(() => parseDestination('network', value)).toThrow(ValidationError);
    expect(() => parseDestination('network', value)).toThrow(fragment);
  });
  it('accepts a URL of an unknown scheme when it names a port', () => {
    expect(parseDestination('network', 'foo://example.com:9/x').dest).toMatchObject({ port: 9 });
  });
});

describe('filesystem destinations', () => {
  const cases: [string, string][] = [
    ['/data', '/data'],
    ['/data/', '/data'],
    ['//data//a///b', '/data/a/b'],
    ['/data/./a/.', '/data/a'],
    ['/data/../etc/passwd', '/etc/passwd'],
    ['/data/a/b/../../c', '/data/c'],
    ['/../..', '/'],
    ['/', '/'],
    ['~', '~'],
    ['~/src/../bin', '~/bin'],
    ['~/src/./app//main.go', '~/src/app/main.go'],
  ];
  it.each(cases)('%s → %s', (value, path) => {
    expect(parseDestination('filesystem', value).dest).toMatchObject({ path });
  });
  it.each([
    ['relative', 'relative'],
    ['~/..', 'leaves the home directory'],
    ['~/a/../../b', 'leaves the home directory'],
    ['~bob/x', '"~user"'],
    ['', 'empty'],
  ])('refuses %j', (value, fragment) => {
    expect(() => parseDestination('filesystem', value)).toThrow(fragment);
  });
});
