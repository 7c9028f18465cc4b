import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { bindCredential, checkCredential, secretInBody } from '../../../src/http/layers/credential.js';
import { outgoing, realWire, reply, serve, stack } from './loopback.js';

describe('bindCredential: a credential goes to its own origin only', () => {
  it('attaches the Authorization header to a request to its origin, and to no other', async () => {
    const own = await serve(reply(200));
    const other = await serve(reply(200));
    const lines: string[] = [];
    const send = stack(
      realWire(),
      bindCredential((l) => lines.push(l)),
    );
    const credential = { origin: own.origin, authorization: 'Bearer own-secret' };
    await (await send(outgoing(`${own.url}/a`, { credential }))).body.dump();
    await (await send(outgoing(`${other.url}/b`, { credential }))).body.dump();
    expect(own.hits[0]?.headers.authorization).toBe('Bearer own-secret');
    expect(other.hits[0]?.headers.authorization).toBeUndefined();
    expect(lines).toEqual([`  credential for ${own.origin} withheld from ${other.origin}`]);
  });

  it("does not change the caller's headers", async () => {
    const own = await serve(reply(200));
    const req = outgoing(own.url, {
      headers: { 'user-agent': 't' },
      credential: { origin: own.origin, authorization: 'Bearer x' },
    });
    await (await stack(realWire(), bindCredential())(req)).body.dump();
    expect(req.headers).toEqual({ 'user-agent': 't' });
  });

  it('adds no header for a secret that travels in the body', async () => {
    const own = await serve(reply(200));
    const send = stack(realWire(), bindCredential());
    await (await send(outgoing(own.url, { method: 'POST', credential: { origin: own.origin } }))).body.dump();
    expect(own.hits[0]?.headers.authorization).toBeUndefined();
  });
});

describe('checkCredential: refused before anything is sent', () => {
  it('refuses a credential whose origin is plain HTTP to another machine (exit 2)', () => {
    const cred = { origin: 'http://hub.example.test', authorization: 'Bearer x' };
    const err = (() => {
      try {
        checkCredential(cred, new URL('http://hub.example.test/v2/'));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(
      'refusing to send credentials to http://hub.example.test over plain HTTP (only loopback may use plain HTTP)',
    );
  });

  it('lets HTTPS anywhere and plain HTTP on loopback through', () => {
    expect(() =>
      checkCredential({ origin: 'https://hub.example.test', authorization: 'x' }, new URL('https://o.test/')),
    ).not.toThrow();
    expect(() =>
      checkCredential(
        { origin: 'http://127.0.0.1:5000', authorization: 'x' },
        new URL('http://127.0.0.1:5000/'),
      ),
    ).not.toThrow();
    expect(() => checkCredential(undefined, new URL('http://anything.test/'))).not.toThrow();
  });

  it('refuses to send a secret in the body to any origin but its own', () => {
    expect(() =>
      checkCredential({ origin: 'https://hub.example.test' }, new URL('https://elsewhere.test/token')),
    ).toThrow('a secret for https://hub.example.test cannot be sent to https://elsewhere.test');
    expect(() =>
      checkCredential({ origin: 'https://hub.example.test' }, new URL('https://hub.example.test/token')),
    ).not.toThrow();
  });

  it('knows a secret in the body from a header credential', () => {
    expect(secretInBody({ origin: 'https://h.test' })).toBe(true);
    expect(secretInBody({ origin: 'https://h.test', authorization: 'Bearer x' })).toBe(false);
    expect(secretInBody(undefined)).toBe(false);
  });
});
