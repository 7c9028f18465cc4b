// The credential helper protocol against programs that fail in every way: not found, exit 1,
// garbage, hanging (timed out), flooding (capped). Each is an error naming the helper.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialHelperError, helperStore } from '../../src/auth/credential-helper.js';
import { fakeHelperDir } from '../support/fake-helpers.js';

const dir = fakeHelperDir();
const env = { PATH: `${dir}:${process.env.PATH}` };
const URL_ = 'https://hub.example.test/hubctl/profiles/default';

async function failure(p: Promise<unknown>): Promise<CredentialHelperError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CredentialHelperError);
  return err as CredentialHelperError;
}

describe('credential helpers that fail', () => {
  it('not found on the PATH', async () => {
    const err = await failure(helperStore('nosuch', { env }).store(URL_, 'alice', 'alice-secret-1'));
    expect(err.message).toBe('docker-credential-nosuch was not found on the PATH');
    expect(err.hint).toContain('--insecure-storage');
  });

  it('exit 1: its message, one line, named', async () => {
    const err = await failure(helperStore('fails', { env }).store(URL_, 'alice', 'alice-secret-1'));
    expect(err.message).toBe(
      'docker-credential-fails store failed (exit 1): error storing credentials - err: exit status 1, out: keychain locked',
    );
  });

  it('a failure message never carries the secret it was given', async () => {
    const err = await failure(helperStore('echoes', { env }).store(URL_, 'alice', 'hunter2-secret'));
    expect(err.message).toContain('"Secret":"[secret]"');
    expect(err.message).not.toContain('hunter2-secret');
  });

  it('garbage on get: refused, and its bytes never reach the message', async () => {
    const err = await failure(helperStore('garbage', { env }).get(URL_));
    expect(err.message).toBe(
      'docker-credential-garbage get answered something that is not a credential (JSON with Username and Secret)',
    );
  });

  it('hanging: killed after the timeout', async () => {
    const start = Date.now();
    const err = await failure(helperStore('hangs', { env, timeoutMs: 300 }).get(URL_));
    expect(err.message).toBe('docker-credential-hangs get did not answer within 0.3 s');
    expect(Date.now() - start).toBeLessThan(5000);
  });

  it('hanging with a child that holds its pipes (gpg under pass): the timeout holds, naming the helper', async () => {
    const pidFile = join(dir, `pid-${process.pid}-a`);
    const start = Date.now();
    const err = await failure(
      helperStore('hangs-with-child', { env: { ...env, HELPER_PID_FILE: pidFile }, timeoutMs: 500 }).get(
        URL_,
      ),
    );
    expect(err.message).toBe('docker-credential-hangs-with-child get did not answer within 0.5 s');
    // Not the 60 s its child keeps the pipes open.
    expect(Date.now() - start).toBeLessThan(3000);
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  });

  it('an answer is taken when the helper exits, though its child still holds the pipes', async () => {
    const pidFile = join(dir, `pid-${process.pid}-b`);
    const start = Date.now();
    const found = await helperStore('answers-leaves-child', {
      env: { ...env, HELPER_PID_FILE: pidFile },
      timeoutMs: 5000,
    }).get(URL_);
    expect(found).toEqual({ username: 'u', secret: 's' });
    expect(Date.now() - start).toBeLessThan(3000);
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  });

  it('flooding: cut at 64 KiB', async () => {
    const err = await failure(helperStore('floods', { env }).get(URL_));
    expect(err.message).toBe('docker-credential-floods get answered more than 64 KiB');
  });

  it('a name that is not a program name is refused before anything runs', async () => {
    expect(() => helperStore('../../bin/sh', { env })).toThrow(CredentialHelperError);
  });
});

describe('the docker config path runs helpers the same way', () => {
  it('a helper that exits without reading a large input is a named error, not an EPIPE crash', async () => {
    const { runHelper } = await import('../../src/auth/credential-helper.js');
    const unhandled: unknown[] = [];
    const onError = (err: unknown) => unhandled.push(err);
    process.on('uncaughtException', onError);
    try {
      // 8 MiB cannot fit a pipe's buffer: the write fails once the helper has gone.
      const err = await failure(runHelper('docker-credential-quits', 'get', 'x'.repeat(8 << 20), { env }));
      expect(err.message).toBe('docker-credential-quits get failed (exit 1): no such entry');
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('uncaughtException', onError);
    }
  });
});
