// Issue 20 item 3: an address with a user name and password in it is refused, everywhere an address
// enters (flags, environment, profile values, `config set`, the engine address), with exit 2 before
// any request — and the password appears nowhere in stdout or stderr.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasUserinfo, redactUserinfo } from '../../src/config/values.js';
import { runCli } from '../support/run-cli.js';

const SECRET = 'S3cr3t-pw-4711';

/** Addresses that carry the secret in their userinfo, in the shapes a user (or a typo) writes. */
const ADDRESSES = [
  `http://alice:${SECRET}@127.0.0.1:9`,
  `https://alice:${SECRET}@hub.example.com/api`,
  `https://${SECRET}@hub.example.com`,
  `https://alice:${SECRET}@hub.example.com:99999`, // also not a valid URL: still redacted
  `https://alice:${SECRET}@exa mple.com`,
  `http:alice:${SECRET}@hub.example.com`, // the WHATWG parser reads this as http://alice:…@hub…
  `https://alice:${SECRET}@evil@hub.example.com`,
  `ftp://alice:${SECRET}@hub.example.com`,
  `https://alice:${SECRET}@hub.example.com/?x=1`,
];

function expectRefused(
  r: { code: number; stdout: string; stderr: string },
  names: string,
  debug = false,
): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(names);
  expect(r.stderr).not.toContain(SECRET);
  // The sentence and its hint (--debug adds the stack, redacted all the same).
  if (!debug) expect(r.stderr.split('\n').filter(Boolean).length, r.stderr).toBeLessThanOrEqual(2);
}

describe('an address with userinfo is refused, its password never printed', () => {
  it.each(ADDRESSES)('--base-url, --governance-url, the environment, a profile: %s', async (url) => {
    const env = { HUBCTL_ORG: 'acme', HUBCTL_USERNAME: 'alice', HUBCTL_TOKEN: 'x' };
    for (const argv of [
      ['--base-url', url, 'token', 'list'],
      ['--governance-url', url, 'policy', 'list'],
      ['token', 'list', '--debug'],
    ]) {
      const r = await runCli(argv, {
        env: argv[0] === 'token' ? { ...env, HUBCTL_BASE_URL: url } : env,
      });
      expectRefused(r, argv[0] === 'token' ? 'HUBCTL_BASE_URL' : argv[0]!, argv.includes('--debug'));
    }
    const gov = await runCli(['policy', 'list'], { env: { ...env, HUBCTL_GOVERNANCE_URL: url } });
    expectRefused(gov, 'HUBCTL_GOVERNANCE_URL');

    const dir = mkdtempSync(join(tmpdir(), 'hubctl-userinfo-'));
    for (const key of ['base-url', 'governance-url']) {
      const set = await runCli(['config', 'set', key, url], { env: { HUBCTL_CONFIG_DIR: dir } });
      expectRefused(set, key);
    }
    // A profile written by hand (or by an older version) is refused when it is read.
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { 'base-url': url } } }));
    const stored = await runCli(['token', 'list'], { env: { ...env, HUBCTL_CONFIG_DIR: dir } });
    expectRefused(stored, 'base-url of profile "default"');
    // `config` still shows it (without the password) and removes it.
    const get = await runCli(['config', 'get', 'base-url'], { env: { HUBCTL_CONFIG_DIR: dir } });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout + get.stderr).not.toContain(SECRET);
    expect(get.stdout).toContain('***@');
    const unset = await runCli(['config', 'unset', 'base-url'], { env: { HUBCTL_CONFIG_DIR: dir } });
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stdout + unset.stderr).not.toContain(SECRET);
  });

  it('the engine address (--engine-host, DOCKER_HOST)', async () => {
    const tcp = `tcp://alice:${SECRET}@127.0.0.1:9`;
    const flag = await runCli(['--engine-host', tcp, 'engine', 'info']);
    expectRefused(flag, 'carries a user name or password');
    const env = await runCli(['engine', 'info'], { env: { DOCKER_HOST: tcp } });
    expectRefused(env, 'DOCKER_HOST');
  });

  it('redaction keeps the rest of the address, so the user sees which one it was', () => {
    expect(redactUserinfo(`https://alice:${SECRET}@hub.example.com/a`)).toBe('https://***@hub.example.com/a');
    expect(redactUserinfo('https://hub.example.com/a@b')).toBe('https://hub.example.com/a@b');
    expect(hasUserinfo('https://hub.example.com/a@b')).toBe(false);
    expect(hasUserinfo('https://hub.example.com?q=a@b')).toBe(false);
  });

  it('property: whatever the WHATWG parser reads as userinfo, hasUserinfo sees, and redaction removes the password', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:@-]{1,20}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('http://', 'https://', 'http:', 'https:/', 'HTTP://', ' https://', 'https:\\\\'),
        part,
        fc.stringMatching(/^[a-z0-9.-]{1,20}$/),
        fc.stringMatching(/^(\/[a-z0-9@]{0,8}){0,3}$/),
        (scheme, info, host, path) => {
          const text = `${scheme}${info}@${host}${path}`;
          let url: URL | undefined;
          try {
            url = new URL(text);
          } catch {
            url = undefined;
          }
          if (url && (url.username || url.password)) expect(hasUserinfo(text)).toBe(true);
          if (url?.password) expect(redactUserinfo(text)).not.toContain(`:${url.password}@`);
          expect(redactUserinfo(text)).toBe(`${scheme}***@${host}${path}`);
        },
      ),
    );
  });
});
