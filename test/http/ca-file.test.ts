// Issue 20 item 16: --ca-file is checked to be PEM certificates before any request: a DER file, a
// key, a broken certificate, a directory, an empty file are one sentence and exit 2, and nothing
// reaches the server.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, resetHarness, startHarness } from '../commands/harness.js';
import { makeEcCertificate } from '../support/certificate.js';

let h: Harness;
const dir = mkdtempSync(join(tmpdir(), 'hubctl-ca-file-'));
let pem: string;
beforeAll(async () => {
  h = await startHarness();
  makeEcCertificate(join(dir, 'key.pem'), join(dir, 'cert.pem'), { commonName: 'ca test', days: 30 });
  pem = readFileSync(join(dir, 'cert.pem'), 'utf8');
});
afterAll(() => h.hub.close());
beforeEach(() => {
  resetHarness(h);
  h.env.HUBCTL_USERNAME = 'alice';
  h.env.HUBCTL_TOKEN = 'alice-password';
});

const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('--ca-file', () => {
  it.each([
    [
      'a DER certificate',
      () => file('ca.der', Buffer.from(pem.split('\n').slice(1, -2).join(''), 'base64')),
      'is not a PEM file of certificates',
    ],
    ['an empty file', () => file('empty.pem', ''), 'is not a PEM file of certificates'],
    [
      'a private key',
      () => file('key-only.pem', readFileSync(join(dir, 'key.pem'))),
      'is not a PEM file of certificates',
    ],
    [
      'a broken certificate',
      () => file('broken.pem', pem.replace(/\n[A-Za-z0-9+/]{20}/, '\nAAAAAAAAAAAAAAAAAAAA')),
      'certificate 1 of 1 is not a valid certificate',
    ],
    [
      'a good one after a broken one',
      () => file('mixed.pem', `${pem.replace(/[A-Za-z0-9+/]{40}\n/, '\n')}${pem}`),
      'certificate 1 of 2 is not a valid certificate',
    ],
    [
      'a directory',
      () => {
        mkdirSync(join(dir, 'adir'), { recursive: true });
        return join(dir, 'adir');
      },
      'is not a regular file',
    ],
  ])('%s: one sentence, exit 2, no request', async (_, make, says) => {
    const path = make();
    const r = await h.run(['--ca-file', path, 'token', 'list']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toContain(says);
    expect(r.stderr.split('\n')[0]).toContain(path);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(h.hub.requests).toHaveLength(0);
  });

  it('a PEM certificate passes', async () => {
    const r = await h.run(['--ca-file', join(dir, 'cert.pem'), 'token', 'list']);
    expect(r.code, r.stderr).toBe(0);
  });
});
