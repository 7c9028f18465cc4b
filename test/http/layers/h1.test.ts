// The blob transport (src/http/layers/h1.ts): one HTTP/1.1 exchange on a connection of its own,
// against real node net/http/https servers on 127.0.0.1 (./h1-harness.ts). It must behave as
// undici's dispatch does for every layer above: the same handler callbacks (exactly one
// onResponseEnd or onResponseError), the same error codes. Where undici's answer is the
// expectation, the same exchange is also run through undici and the two are compared. Every server
// here counts its connections: none may stay open after an exchange. Through the client (the same
// plain sentences): h1-client.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangeOnce, OWN_CONNECTION_MIN } from '../../../src/http/layers/h1.js';
import { wire } from '../../../src/http/layers/wire.js';
import { makeEcCertificate } from '../../support/certificate.js';
import {
  agents,
  allClosed,
  bytes,
  code,
  exchange,
  generated,
  type Hooks,
  h1Options,
  http,
  listen,
  pattern,
  raw,
  recorder,
  sha,
  sleep,
  type Tracked,
  viaUndici,
} from './h1-harness.js';
import { closedPort, outgoing } from './loopback.js';

// --- the cases ------------------------------------------------------------------------------

describe('h1: an answer framed each way', () => {
  it('a Content-Length body of 5 MiB: every byte, the request as HTTP/1.1 asks', async () => {
    const big = pattern(5 * 1024 * 1024);
    let seen: IncomingMessage | undefined;
    const server = await http((req, res) => {
      seen = req;
      res.writeHead(200, { 'content-length': String(big.length), 'x-many': ['a', 'b'] });
      res.end(big);
    });
    const rec = await exchange({
      url: `${server.url}/v2/r/blobs/sha256:x?n=1`,
      headers: { 'user-agent': 'ua/1' },
    });
    expect(rec.statuses).toEqual([200]);
    expect(rec.ends).toBe(1);
    expect(sha(bytes(rec))).toBe(sha(big));
    expect(rec.headers?.['content-length']).toBe(String(big.length));
    expect(rec.headers?.['x-many']).toEqual(['a', 'b']);
    expect(seen?.method).toBe('GET');
    expect(seen?.url).toBe('/v2/r/blobs/sha256:x?n=1');
    expect(seen?.httpVersion).toBe('1.1');
    expect(seen?.headers.host).toBe(`127.0.0.1:${server.port}`);
    expect(seen?.headers['user-agent']).toBe('ua/1');
    // No Connection field (undici sends `keep-alive`): the client closes once the answer is whole,
    // which allClosed() checks.
    expect(seen?.headers.connection).toBeUndefined();
    expect(seen?.headers['content-length']).toBeUndefined();
    await allClosed();
  });

  it('a chunked body, written in pieces of random sizes, and its trailers', async () => {
    const big = pattern(2 * 1024 * 1024 + 17);
    const server = await http((_req, res) => {
      res.writeHead(200, { trailer: 'x-t' });
      let i = 0;
      const more = () => {
        while (i < big.length) {
          const n = 1 + Math.floor(Math.random() * 70_000);
          const ok = res.write(big.subarray(i, i + n));
          i += n;
          if (!ok) return void res.once('drain', more);
        }
        res.addTrailers({ 'x-t': 'v' });
        res.end();
      };
      more();
    });
    const rec = await exchange({ url: server.url });
    expect(rec.ends).toBe(1);
    expect(rec.headers?.['transfer-encoding']).toBe('chunked');
    expect(sha(bytes(rec))).toBe(sha(big));
    await allClosed();
  });

  it('a body framed by the close of the connection, and an HTTP/1.0 answer', async () => {
    const body = pattern(300_000);
    for (const version of ['1.1', '1.0']) {
      const server = await raw((socket) => {
        socket.write(`HTTP/${version} 200 OK\r\ncontent-type: application/octet-stream\r\n\r\n`);
        socket.write(body.subarray(0, 100_000));
        setTimeout(() => socket.end(body.subarray(100_000)), 20);
      });
      const rec = await exchange({ url: server.url });
      expect(rec.ends).toBe(1);
      expect(bytes(rec).equals(body)).toBe(true);
    }
    await allClosed();
  });

  it('no body for HEAD, 204 and 304, whatever they announce; an empty body of length 0', async () => {
    const server = await raw((socket, head) => {
      const path = head.split(' ')[1];
      if (path === '/head') socket.write('HTTP/1.1 200 OK\r\ncontent-length: 5000\r\n\r\n');
      if (path === '/204') socket.write('HTTP/1.1 204 No Content\r\ncontent-length: 5000\r\n\r\n');
      if (path === '/304') socket.write('HTTP/1.1 304 Not Modified\r\ntransfer-encoding: chunked\r\n\r\n');
      if (path === '/0') socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
      // The connection stays open: each answer must end on its own framing, not on the close.
    });
    for (const [method, path, status] of [
      ['HEAD', '/head', 200],
      ['GET', '/204', 204],
      ['GET', '/304', 304],
      ['GET', '/0', 200],
    ] as const) {
      const rec = await exchange({ url: `${server.url}${path}`, method });
      expect(rec.statuses).toEqual([status]);
      expect(rec.ends).toBe(1);
      expect(bytes(rec).length).toBe(0);
    }
    await allClosed();
  });

  it('reads no more than the announced length, even when more follows on the socket', async () => {
    const server = await raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n0123456789NOT-THIS-ANSWER');
    });
    const rec = await exchange({ url: server.url });
    expect(bytes(rec).toString()).toBe('0123456789');
    expect(rec.ends).toBe(1);
    await allClosed();
  });

  it('a head in many pieces, a byte at a time', async () => {
    const server = await raw((socket) => {
      const text = 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\nx-a: b\r\n\r\nhello';
      let i = 0;
      const timer = setInterval(() => {
        if (i >= text.length) return void clearInterval(timer);
        socket.write(text[i++] as string);
      }, 1);
      socket.on('close', () => clearInterval(timer));
    });
    const rec = await exchange({ url: server.url });
    expect(rec.headers?.['x-a']).toBe('b');
    expect(bytes(rec).toString()).toBe('hello');
    await allClosed();
  });

  it('refuses a malformed answer (both framings; a smuggling shape) with an error, never a guess', async () => {
    for (const answer of [
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhello!',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5x\r\nhello\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nx: a\r\n b\r\n\r\n',
      'HTTP/1.1 101 Switching Protocols\r\nupgrade: h2c\r\n\r\n',
      'SSH-2.0-OpenSSH_9.2\r\n\r\n',
    ]) {
      const server = await raw((socket) => socket.write(answer));
      const rec = await exchange({ url: server.url });
      expect(rec.errors, answer).toBe(1);
      expect(rec.data.length).toBe(0);
    }
    await allClosed();
  });

  it('refuses a head over 16 KiB', async () => {
    const server = await raw((socket) => socket.write(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(20_000)}\r\n\r\n`));
    const rec = await exchange({ url: server.url });
    expect(rec.errors).toBe(1);
    await allClosed();
  });
});

describe('h1: informational answers and answers before the body is sent', () => {
  it('skips 100 Continue (and 103 with fields) to the answer that follows (RFC 9110 §15.2)', async () => {
    for (const together of [true, false]) {
      const server = await raw((socket) => {
        const first =
          'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a>; rel=preload\r\n\r\n';
        const answer = 'HTTP/1.1 201 Created\r\ncontent-length: 2\r\nlocation: /x\r\n\r\nok';
        if (together) socket.write(first + answer);
        else {
          socket.write(first);
          setTimeout(() => socket.write(answer), 30);
        }
      });
      const rec = await exchange({ url: server.url, method: 'PUT', body: 'hi' });
      expect(rec.statuses.filter((s) => s >= 200)).toEqual([201]);
      expect(rec.headers?.location).toBe('/x');
      expect(bytes(rec).toString()).toBe('ok');
      expect(rec.ends).toBe(1);
    }
    await allClosed();
  });

  it('an answer before the upload is all sent ends the sending; the body stream is let go', async () => {
    const server = await raw((socket) => {
      // Refuses at once, and reads no more of the 64 MiB that follow.
      socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-length: 7\r\n\r\ntoo big');
      socket.pause();
    });
    const size = 64 * 1024 * 1024;
    const body = generated(size);
    const started = Date.now();
    const rec = await exchange({
      url: server.url,
      method: 'PUT',
      headers: { 'content-length': String(size) },
      body,
      bodyTimeout: 5_000,
    });
    expect(rec.statuses).toEqual([413]);
    expect(bytes(rec).toString()).toBe('too big');
    expect(rec.ends).toBe(1);
    // Well before any deadline: the answer ended it, not a timeout.
    expect(Date.now() - started).toBeLessThan(3_000);
    await sleep(50);
    expect(body.destroyed).toBe(true);
    await allClosed();
  });

  it('an early answer while an async-iterable body is still being sent ends the exchange too', async () => {
    const server = await raw((socket) => {
      socket.write('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
      socket.pause();
    });
    let finished = false;
    async function* body() {
      try {
        for (let i = 0; i < 1024; i++) yield Buffer.alloc(64 * 1024, 0x62);
      } finally {
        finished = true;
      }
    }
    const rec = await exchange({
      url: server.url,
      method: 'PUT',
      headers: { 'content-length': String(64 * 1024 * 1024) },
      body: body(),
    });
    expect(rec.statuses).toEqual([400]);
    expect(rec.ends).toBe(1);
    await allClosed();
    // The body is let go: its generator is returned (its finally runs), not left suspended.
    await sleep(50);
    expect(finished).toBe(true);
  });
});

describe('h1: failures, with the codes undici gives them', () => {
  it('a body cut mid-way (reset or clean close) is UND_ERR_SOCKET, as undici says', async () => {
    const shapes: ((socket: Socket) => void)[] = [
      // Announced length, half sent, then the close.
      (s) => s.write(`HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n${'x'.repeat(50_000)}`, () => s.end()),
      // Chunked, cut inside a chunk.
      (s) => s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n10\r\nabc', () => s.end()),
      // Chunked, cut before the last chunk.
      (s) => s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n', () => s.end()),
      // Closed inside the head.
      (s) => s.write('HTTP/1.1 200 OK\r\ncontent-len', () => s.end()),
      // Closed with no answer at all.
      (s) => s.end(),
    ];
    for (const shape of shapes) {
      const server = await raw(shape);
      const ours = await exchange({ url: server.url });
      const theirs = await viaUndici({ url: server.url });
      expect(ours.errors).toBe(1);
      expect(code(ours)).toBe('UND_ERR_SOCKET');
      expect(code(ours)).toBe(code(theirs));
      expect(ours.statuses).toEqual(theirs.statuses);
    }
    await allClosed();
  });

  it('a refused connection is ECONNREFUSED', async () => {
    const url = `${await closedPort()}/x`;
    const ours = await exchange({ url });
    expect(code(ours)).toBe('ECONNREFUSED');
    expect(code(ours)).toBe(code(await viaUndici({ url })));
  });

  it('no head within headersTimeout is UND_ERR_HEADERS_TIMEOUT, however slowly the head drips', async () => {
    const silent = await raw(() => undefined);
    let started = Date.now();
    const ours = await exchange({ url: silent.url, headersTimeout: 300 });
    expect(code(ours)).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(code(await viaUndici({ url: silent.url, headersTimeout: 300 }))).toBe('UND_ERR_HEADERS_TIMEOUT');

    // A byte of the head every 50 ms keeps the socket busy but the head never comes: the deadline
    // is for the whole head, not for each gap.
    const drip = await raw((socket) => {
      const timer = setInterval(() => socket.write('x'), 50);
      socket.write('HTTP/1.1 200 OK\r\nx-slow: ');
      socket.on('close', () => clearInterval(timer));
    });
    started = Date.now();
    const dripped = await exchange({ url: drip.url, headersTimeout: 400 });
    expect(code(dripped)).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
    await allClosed();
  });

  it('a gap in the body longer than bodyTimeout is UND_ERR_BODY_TIMEOUT; shorter gaps are not', async () => {
    const stall = await raw((socket) =>
      socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n${'x'.repeat(10)}`),
    );
    const started = Date.now();
    const ours = await exchange({ url: stall.url, bodyTimeout: 300 });
    expect(code(ours)).toBe('UND_ERR_BODY_TIMEOUT');
    expect(bytes(ours).length).toBe(10);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(code(await viaUndici({ url: stall.url, bodyTimeout: 300 }))).toBe('UND_ERR_BODY_TIMEOUT');

    // A byte every 100 ms for a second: each gap is within the 400 ms, so it completes.
    const drip = await raw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n');
      let n = 0;
      const timer = setInterval(() => {
        socket.write('y');
        if (++n === 10) clearInterval(timer);
      }, 100);
      socket.on('close', () => clearInterval(timer));
    });
    const dripped = await exchange({ url: drip.url, bodyTimeout: 400 });
    expect(dripped.ends).toBe(1);
    expect(bytes(dripped).toString()).toBe('y'.repeat(10));
    await allClosed();
  });

  it('an upload the server stops reading times out (a stall, never a hang) and lets its body go', async () => {
    const server = await raw((socket) => socket.pause());
    const size = 256 * 1024 * 1024;
    const body = generated(size);
    const started = Date.now();
    const rec = await exchange({
      url: server.url,
      method: 'PUT',
      headers: { 'content-length': String(size) },
      body,
      bodyTimeout: 400,
      headersTimeout: 400,
    });
    expect(rec.errors).toBe(1);
    expect(code(rec)).toMatch(/^UND_ERR_(BODY|HEADERS)_TIMEOUT$/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(body.destroyed).toBe(true);
    await allClosed();
  });

  it('the body’s own failure fails the exchange with it', async () => {
    const server = await raw((socket) => socket.resume());
    const failure = new Error('the source broke');
    let pushed = false;
    const body = new Readable({
      read() {
        if (pushed) return;
        pushed = true;
        this.push(Buffer.alloc(1000));
        setTimeout(() => this.destroy(failure), 10);
      },
    });
    const rec = await exchange({
      url: server.url,
      method: 'PUT',
      headers: { 'content-length': '100000' },
      body,
    });
    expect(rec.error).toBe(failure);
    await allClosed();
  });

  it('a body longer or shorter than its Content-Length is undici’s error for it; no byte past the length is sent', async () => {
    for (const [declared, actual] of [
      [5, 10],
      [10, 3],
    ] as const) {
      for (const kind of ['readable', 'iterable'] as const) {
        let received = 0;
        let completed = false;
        const server = await http((req, res) => {
          req.on('data', (c: Buffer) => {
            received += c.length;
          });
          req.on('end', () => {
            completed = true;
            res.end();
          });
          req.on('error', () => undefined);
        });
        const pieces = [Buffer.alloc(actual, 0x61)];
        const body = () =>
          kind === 'readable'
            ? Readable.from(pieces)
            : (async function* () {
                yield* pieces;
              })();
        const opts = { url: server.url, method: 'PUT', headers: { 'content-length': String(declared) } };
        const rec = await exchange({ ...opts, body: body() });
        expect(rec.errors, `${kind} ${actual} for ${declared}`).toBe(1);
        // undici's code for it, which the layers above may read.
        expect(code(rec)).toBe(code(await viaUndici({ ...opts, body: body() })));
        expect(code(rec)).toBe('UND_ERR_REQ_CONTENT_LENGTH_MISMATCH');
        expect(rec.statuses).toEqual([]);
        await allClosed();
        expect(received).toBeLessThanOrEqual(declared);
        if (actual < declared) expect(completed).toBe(false);
      }
    }
  });

  it('refuses header values with CR or LF, and bad names, before anything is sent', async () => {
    const server = await raw(() => undefined);
    const bad: Record<string, string>[] = [
      { 'x-a': 'b\r\ninjected: 1' },
      { 'x-a': 'b\ninjected: 1' },
      { 'x-a': 'b\rc' },
      { 'x-a': 'nul\x00' },
      { 'x a': 'b' },
      { 'x-a\r\ninjected': 'b' },
      { '': 'b' },
    ];
    for (const headers of bad) {
      const rec = await exchange({ url: server.url, headers });
      expect(rec.errors, JSON.stringify(headers)).toBe(1);
      // undici refuses the same, with its code for a bad argument.
      const theirs = await viaUndici({ url: server.url, headers });
      expect(theirs.errors, JSON.stringify(headers)).toBe(1);
      expect(code(rec), JSON.stringify(headers)).toBe(code(theirs));
      expect(rec.statuses).toEqual([]);
    }
    await sleep(50);
    expect(server.accepted).toBe(0);
  });

  it('a streamed body without a Content-Length is refused before anything is sent', async () => {
    const server = await raw(() => undefined);
    const rec = await exchange({ url: server.url, method: 'PUT', body: Readable.from([Buffer.from('x')]) });
    expect(rec.errors).toBe(1);
    await sleep(50);
    expect(server.accepted).toBe(0);
  });
});

describe('h1: the reader’s controls', () => {
  it('a paused answer is not timed: paused longer than bodyTimeout, resumed, it completes', async () => {
    const big = pattern(3 * 1024 * 1024);
    const server = await http((_req, res) => {
      res.writeHead(200, { 'content-length': String(big.length) });
      res.end(big);
    });
    // Paused at the head, and again after the first chunk, each time for 3 × bodyTimeout.
    let pausedOnce = false;
    const rec = await exchange(
      { url: server.url, bodyTimeout: 200 },
      {
        onResponseStart(c) {
          c.pause();
          setTimeout(() => c.resume(), 600);
        },
        onResponseData(c) {
          if (pausedOnce) return;
          pausedOnce = true;
          c.pause();
          expect(c.paused).toBe(true);
          setTimeout(() => c.resume(), 600);
        },
      },
    );
    expect(rec.errors).toBe(0);
    expect(sha(bytes(rec))).toBe(sha(big));
    await allClosed();
  });

  it('a stall after a resume is still timed', async () => {
    const server = await raw((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nab'));
    const rec = await exchange(
      { url: server.url, bodyTimeout: 200 },
      {
        onResponseStart(c) {
          c.pause();
          setTimeout(() => c.resume(), 400);
        },
      },
    );
    expect(code(rec)).toBe('UND_ERR_BODY_TIMEOUT');
    await allClosed();
  });

  it('abort from the controller: onResponseError with its reason, once, and no data after it', async () => {
    const framings: ((socket: Socket) => void)[] = [
      (s) => s.write(`HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n${'x'.repeat(50_000)}`),
      // Many chunks in one write: the decoder must not hand on the rest after the abort.
      (s) => s.write(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${'1\r\nx\r\n'.repeat(1000)}`),
      (s) => s.write(`HTTP/1.1 200 OK\r\n\r\n${'x'.repeat(50_000)}`),
    ];
    for (const framing of framings) {
      const server = await raw(framing);
      const reason = new Error('interrupted');
      const rec = await exchange(
        { url: server.url },
        {
          onResponseData(c, _chunk, r) {
            if (r.data.length === 1) c.abort(reason);
          },
        },
      );
      expect(rec.error).toBe(reason);
      expect(rec.events.filter((e) => e === 'data')).toHaveLength(1);
      expect(rec.events.at(-1)).toBe('error');
      expect(rec.controller?.aborted).toBe(true);
      expect(rec.controller?.reason).toBe(reason);
    }
    await allClosed();
  });

  it('abort before the connection, and while waiting for the head', async () => {
    const server = await raw(() => undefined);
    const reason = new Error('stop');
    const first = await exchange({ url: server.url }, { onRequestStart: (c) => c.abort(reason) });
    expect(first.error).toBe(reason);
    expect(first.events).toEqual(['start', 'error']);
    await sleep(50);
    expect(server.accepted).toBe(0);

    let controller: Dispatcher.DispatchController | undefined;
    const { handler, done } = recorder({
      onRequestStart(c) {
        controller = c;
      },
    });
    exchangeOnce(h1Options({ url: server.url }), handler);
    await sleep(100);
    controller?.abort(reason);
    const rec = await done;
    expect(rec.error).toBe(reason);
    await allClosed();
  });
});

describe('h1: a handler that throws', () => {
  it.each(['onResponseStart', 'onResponseData'] as const)(
    'a throw in %s fails the exchange with that error, as undici does (never an uncaught exception)',
    async (where) => {
      const server = await http((_req, res) => {
        res.writeHead(200, { 'content-length': '10' });
        res.end('0123456789');
      });
      const boom = new Error('boom');
      const hooks: Hooks = {
        [where]: () => {
          throw boom;
        },
      };
      const theirs = await viaUndici({ url: server.url }, hooks);
      expect(theirs.error).toBe(boom);
      const ours = await exchange({ url: server.url }, hooks);
      expect(ours.error).toBe(boom);
      expect(ours.events).toEqual(theirs.events);
      await allClosed();
    },
  );
});

describe('h1: TLS and addresses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-h1-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let made = 0;
  async function httpsServer(): Promise<{ server: Tracked; ca: string }> {
    const key = join(dir, `key-${++made}.pem`);
    const cert = join(dir, `cert-${made}.pem`);
    makeEcCertificate(key, cert, { commonName: 'h1 test', days: 1, ipAddress: '127.0.0.1' });
    const s = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200, { 'content-length': '6' });
      res.end('secret');
    });
    return { server: await listen(s, 'https'), ca: readFileSync(cert, 'utf8') };
  }

  it('HTTPS with a private CA: trusted through `ca`, refused without it, as undici refuses it', async () => {
    const { server, ca } = await httpsServer();
    const trusted = await exchange({ url: server.url, ca: [ca] });
    expect(trusted.ends).toBe(1);
    expect(bytes(trusted).toString()).toBe('secret');

    const refused = await exchange({ url: server.url });
    expect(refused.errors).toBe(1);
    expect(refused.statuses).toEqual([]);
    const theirs = await viaUndici({ url: server.url });
    expect(code(refused)).toBe(code(theirs));
    expect(code(refused)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    // Another CA than the server's is no trust either.
    const { ca: other } = await httpsServer();
    const wrong = await exchange({ url: server.url, ca: [other] });
    expect(wrong.errors).toBe(1);
    await allClosed();
  });

  it('a TLS handshake that never comes is a connect timeout after 10 s, as undici’s default', async () => {
    // Accepts the TCP connection and says nothing: the handshake waits.
    const server = await raw(() => undefined);
    const silent = server.url.replace('http:', 'https:');
    const started = Date.now();
    const [ours, theirs] = await Promise.all([exchange({ url: silent }), viaUndici({ url: silent })]);
    expect(code(ours)).toBe('UND_ERR_CONNECT_TIMEOUT');
    expect(code(ours)).toBe(code(theirs));
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    await allClosed();
  }, 30_000);

  it('a host name (localhost), resolved as undici resolves it', async () => {
    let host: string | undefined;
    const server = await http((req, res) => {
      host = req.headers.host;
      res.end('named');
    });
    const url = `http://localhost:${server.port}/x`;
    const ours = await exchange({ url });
    const theirs = await viaUndici({ url });
    expect(bytes(theirs).toString()).toBe('named');
    expect(bytes(ours).toString()).toBe('named');
    expect(host).toBe(`localhost:${server.port}`);
    await allClosed();
  });

  it('IPv6 loopback, when the machine has it', async () => {
    const probe = createNetServer();
    const has6 = await new Promise<boolean>((r) => {
      probe.once('error', () => r(false));
      probe.listen(0, '::1', () => probe.close(() => r(true)));
    });
    if (!has6) return;
    let host: string | undefined;
    const server = await listen(
      createServer((req, res) => {
        host = req.headers.host;
        res.end('six');
      }),
      'http',
      '::1',
    );
    const rec = await exchange({ url: `${server.url}/x` });
    expect(bytes(rec).toString()).toBe('six');
    expect(host).toBe(`[::1]:${server.port}`);
    await allClosed();
  });
});

describe('h1 behind wire.ts: which requests take it', () => {
  /** A dispatcher that records it was asked, and fails: the request went through undici. */
  function undiciSpy() {
    const agent = new Agent();
    agents.push(agent);
    const asked: string[] = [];
    const dispatcher = new Proxy(agent, {
      get(target, prop, receiver) {
        if (prop === 'dispatch' || prop === 'request') asked.push(String(prop));
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    return { dispatcher: dispatcher as Dispatcher, asked };
  }

  it('a streamed GET of 4 MiB or more and a streamed upload of 4 MiB or more, when no proxy is in the way', async () => {
    const seen: string[] = [];
    const server = await http((req, res) => {
      seen.push(`${req.method} ${req.headers.connection}`);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    const spy = undiciSpy();
    const direct = wire(() => ({ dispatcher: spy.dispatcher, direct: {} }));
    const viaProxy = wire(() => ({ dispatcher: spy.dispatcher, proxy: 'http://proxy.test:3128' }));

    await (
      await direct(outgoing(server.url, { stream: true, expectedSize: OWN_CONNECTION_MIN }))
    ).body.dump();
    expect(spy.asked).toEqual([]);
    const size = OWN_CONNECTION_MIN;
    await (
      await direct(
        outgoing(server.url, {
          method: 'PUT',
          headers: { 'content-length': String(size) },
          body: generated(size),
        }),
      )
    ).body.dump();
    expect(spy.asked).toEqual([]);
    // h1's requests carry no Connection field; undici's say keep-alive.
    expect(seen).toEqual(['GET undefined', 'PUT undefined']);

    // Just under the threshold, a Buffer body, or a proxy in the way: undici.
    await (
      await direct(outgoing(server.url, { stream: true, expectedSize: OWN_CONNECTION_MIN - 1 }))
    ).body.dump();
    await (await direct(outgoing(server.url, { stream: true }))).body.dump();
    await (
      await direct(
        outgoing(server.url, {
          method: 'PUT',
          headers: { 'content-length': String(size) },
          body: Buffer.alloc(size),
        }),
      )
    ).body.dump();
    expect(spy.asked.length).toBe(3);
    // The marker the other tests (and the e2e tests) read: undici's requests say keep-alive.
    expect(seen.slice(2)).toEqual(['GET keep-alive', 'GET keep-alive', 'PUT keep-alive']);
    // (The proxy here is a name only: undici is asked, and fails to reach it.)
    await viaProxy(outgoing(server.url, { stream: true, expectedSize: OWN_CONNECTION_MIN })).catch(
      () => undefined,
    );
    expect(spy.asked.length).toBe(4);
  });
});

describe('h1 against undici on generated answers (property)', () => {
  /** The whole answer as a server writes it, framed `framing`. */
  function answerOf(framing: 'length' | 'chunked' | 'close', body: Buffer, chunkSizes: number[]): Buffer {
    if (framing === 'length')
      return Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`), body]);
    if (framing === 'close') return Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nx-a: b\r\n\r\n'), body]);
    const parts: Buffer[] = [Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n')];
    let at = 0;
    let i = 0;
    while (at < body.length) {
      const n = Math.min(body.length - at, chunkSizes[i++ % Math.max(1, chunkSizes.length)] ?? body.length);
      parts.push(Buffer.from(`${n.toString(16)}\r\n`), body.subarray(at, at + n), Buffer.from('\r\n'));
      at += n;
    }
    parts.push(Buffer.from('0\r\n\r\n'));
    return Buffer.concat(parts);
  }

  it('the same outcome, bytes and error code as undici, cut anywhere or whole (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('length', 'chunked', 'close'),
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (framing, bodyBytes, chunkSizes, splits, cut) => {
          const wire = answerOf(framing, Buffer.from(bodyBytes), chunkSizes);
          const upTo = cut === undefined ? wire.length : cut % (wire.length + 1);
          const server = await raw((socket) => {
            // The answer (or its first `upTo` bytes) in pieces, a turn of the event loop apart, then the close.
            const pieces = [...new Set(splits.map((p) => p % (upTo + 1)))].sort((x, y) => x - y);
            let from = 0;
            const next = (i: number) => {
              if (socket.destroyed) return;
              if (i === pieces.length) return void socket.end(wire.subarray(from, upTo));
              const to = pieces[i] as number;
              socket.write(wire.subarray(from, to));
              from = to;
              setTimeout(() => next(i + 1), 2);
            };
            next(0);
          });
          const ours = await exchange({ url: server.url });
          const theirs = await viaUndici({ url: server.url });
          expect(ours.ends, `${framing} cut at ${upTo} of ${wire.length}`).toBe(theirs.ends);
          expect(code(ours)).toBe(code(theirs));
          expect(ours.statuses).toEqual(theirs.statuses);
          expect(bytes(ours).equals(bytes(theirs))).toBe(true);
          if (cut === undefined) expect(bytes(ours).equals(Buffer.from(bodyBytes))).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
    await allClosed();
  }, 60_000);
});
