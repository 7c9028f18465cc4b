// Defects found in review of layers/h1.ts (a large blob's exchange on a connection of its own),
// each pinned by a test over real sockets on 127.0.0.1. Where undici's behaviour is the reference,
// the same case runs through undici (a client with a dispatcher of its own, which never takes the
// blob transport) and through h1.ts (the client's own direct route), and both must agree.
import { createServer as createHttp, type Server } from 'node:http';
import { type AddressInfo, createServer as createNet, type Server as NetServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkError } from '../../../src/errors.js';
import { createHttpClient, type HttpClient } from '../../../src/http/client.js';
import { exchangeOnce, OWN_CONNECTION_MIN } from '../../../src/http/layers/h1.js';
import { recordingClock } from '../mock.js';

const BIG = OWN_CONNECTION_MIN * 2;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The client as a command has it: `own` its direct route (h1.ts for big blobs), else undici only. */
function client(own: boolean, timeoutMs = 10_000): HttpClient {
  const agent = own ? undefined : new Agent();
  if (agent) closers.push(() => agent.close());
  return createHttpClient({
    userAgent: 't',
    clock: recordingClock(),
    timeoutMs,
    retryBaseMs: 1,
    random: () => 0,
    env: {},
    ...(agent ? { dispatcher: agent } : {}),
  });
}

async function listen<T extends Server | NetServer>(server: T): Promise<{ server: T; port: number }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** A TCP listener that records every connection and the bytes sent on it, and answers nothing. */
async function recorder() {
  const seen = { connections: 0, bytes: '' };
  const { port } = await listen(
    createNet((s) => {
      seen.connections++;
      s.on('data', (b: Buffer) => {
        seen.bytes += b.toString('latin1');
      });
      s.on('error', () => {});
    }),
  );
  return { seen, port };
}

describe.each([false, true])('own connection: %s', (own) => {
  it('refuses to follow a blob GET redirected to a scheme other than http(s), as undici does', async () => {
    const other = await recorder();
    const { port } = await listen(
      createHttp((_req, res) => {
        res.writeHead(307, { location: `ftp://127.0.0.1:${other.port}/blob` }).end();
      }),
    );
    const err = await client(own)
      .request({
        url: `http://127.0.0.1:${port}/v2/r/blobs/x`,
        stream: true,
        expectedSize: BIG,
        retry: false,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    await new Promise((r) => setTimeout(r, 100));
    // Nothing went to the other host: no plain-HTTP request to whatever listens there.
    expect(other.seen.connections).toBe(0);
  });

  it('fails an upload at once when its body is closed before its end without an error', async () => {
    let closedAt = 0;
    const { port } = await listen(
      createHttp((req, res) => {
        req.on('data', () => {});
        req.on('end', () => res.writeHead(201).end());
      }),
    );
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= 1024 * 1024) {
          closedAt = performance.now();
          this.destroy(); // a source dropped by its owner: 'close', no 'error', no 'end'
          return;
        }
        sent += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    const err = await client(own, 5_000)
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${port}/upload`,
        headers: { 'content-length': String(BIG) },
        body,
        okStatuses: 'any',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    // Not after the timeout, and not blamed on the server ("stalled").
    expect(performance.now() - closedAt).toBeLessThan(2_000);
    expect((err as Error).message).not.toMatch(/stalled|timed out/);
  });

  it('fails an upload at once when its body was destroyed before it was sent', async () => {
    const { port } = await listen(
      createHttp((req, res) => {
        req.on('data', () => {});
        req.on('end', () => res.writeHead(201).end());
      }),
    );
    const body = new Readable({ read() {} });
    body.destroy();
    const started = performance.now();
    const err = await client(own, 5_000)
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${port}/upload`,
        headers: { 'content-length': String(BIG) },
        body,
        okStatuses: 'any',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

/** An upload's body as an async generator of `total` bytes; `state.finalized` once it was let go. */
function generated(total: number) {
  const state = { yielded: 0, finalized: false };
  async function* gen() {
    try {
      while (state.yielded < total) {
        state.yielded += 64 * 1024;
        yield Buffer.alloc(64 * 1024);
      }
    } finally {
      state.finalized = true;
    }
  }
  return { state, body: gen() };
}

/** A server that takes the connection and reads nothing of the request (a stuck registry). */
async function deaf(onConnection: (s: Socket) => void = () => {}) {
  const { port } = await listen(
    createNet((s) => {
      s.pause();
      s.on('error', () => {});
      onConnection(s);
    }),
  );
  return port;
}

describe.each([false, true])('own connection: %s', (own) => {
  it('lets go of an async-iterable body (its finally runs) when the request is aborted mid-send', async () => {
    const port = await deaf();
    const { state, body } = generated(64 * 1024 * 1024);
    const ac = new AbortController();
    const pending = client(own, 10_000)
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${port}/upload`,
        headers: { 'content-length': String(64 * 1024 * 1024) },
        body,
        okStatuses: 'any',
        signal: ac.signal,
      })
      .catch((e: unknown) => e);
    // The server reads nothing: the body waits for the socket to drain.
    await new Promise((r) => setTimeout(r, 300));
    expect(state.yielded).toBeLessThan(64 * 1024 * 1024);
    ac.abort(new Error('interrupted'));
    await pending;
    await new Promise((r) => setTimeout(r, 200));
    expect(state.finalized).toBe(true);
  });
});

describe('own connection: a wait while the body is sent has a deadline', () => {
  it('gives up an upload the server never reads, however it trickles answers meanwhile', async () => {
    // 103 Early Hints every 50 ms, the body never read: bytes arrive, none of ours leave.
    const port = await deaf((s) => {
      const timer = setInterval(() => s.write('HTTP/1.1 103 Early Hints\r\n\r\n'), 50);
      s.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const err = await client(true, 500)
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${port}/upload`,
        headers: { 'content-length': String(64 * 1024 * 1024) },
        body: Readable.from(generated(64 * 1024 * 1024).body),
        okStatuses: 'any',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(performance.now() - started).toBeLessThan(3_000);
  }, 10_000);
});

describe('exchangeOnce: the handler protocol, as undici keeps it', () => {
  /** Serves `body` (announced or chunked) to one GET. */
  async function blobServer(body: Buffer, chunked: boolean) {
    const { port } = await listen(
      createHttp((_req, res) => {
        if (chunked) {
          res.writeHead(200);
          for (let i = 0; i < body.length; i += 1000) res.write(body.subarray(i, i + 1000));
          res.end();
        } else res.writeHead(200, { 'content-length': String(body.length) }).end(body);
      }),
    );
    return new URL(`http://127.0.0.1:${port}/blob`);
  }

  /** Runs one GET with `handler`'s callbacks; answers how it ended and every callback seen after. */
  function run(url: URL, handler: Partial<Dispatcher.DispatchHandler>) {
    const seen: string[] = [];
    const ended = new Promise<Error | 'end'>((resolve) => {
      exchangeOnce(
        { url, method: 'GET', headers: {}, headersTimeout: 5_000, bodyTimeout: 5_000 },
        {
          ...handler,
          onResponseData(c, chunk) {
            seen.push(`data ${chunk.length}`);
            handler.onResponseData?.(c, chunk);
          },
          onResponseEnd() {
            seen.push('end');
            resolve('end');
          },
          onResponseError(_c, err) {
            seen.push('error');
            resolve(err);
          },
        },
      );
    });
    return { seen, ended };
  }

  it.each([false, true])(
    'a handler that throws ends the request with its error, never an uncaught exception (chunked: %s)',
    async (chunked) => {
      const url = await blobServer(Buffer.alloc(50_000, 1), chunked);
      const thrown = new Error('a tap broke');
      const { ended } = run(url, {
        onResponseData() {
          throw thrown;
        },
      });
      expect(await ended).toBe(thrown);
    },
  );

  it.each([false, true])(
    'nothing reaches a handler after it aborted, from the same read or a later one (chunked: %s)',
    async (chunked) => {
      const url = await blobServer(Buffer.alloc(200_000, 1), chunked);
      const reason = new Error('enough');
      const { seen, ended } = run(url, {
        onResponseData(c) {
          c.abort(reason);
        },
      });
      expect(await ended).toBe(reason);
      await new Promise((r) => setTimeout(r, 50));
      expect(seen.at(-1)).toBe('error');
      expect(seen.filter((s) => s.startsWith('data'))).toHaveLength(1);
    },
  );
});

describe.each([false, true])('own connection: %s', (own) => {
  it('says an upload the server stopped reading timed out, not that its answer stalled', async () => {
    const port = await deaf();
    const err = await client(own, 500)
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${port}/upload`,
        headers: { 'content-length': String(64 * 1024 * 1024) },
        body: Readable.from(generated(64 * 1024 * 1024).body),
        okStatuses: 'any',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toBe(`PUT http://127.0.0.1:${port}/upload failed: timed out`);
  }, 10_000);
});

describe('own connection: a body whose source stalls', () => {
  it('is given up at the request timeout, blamed on the body, not on the server', async () => {
    const { port } = await listen(
      createHttp((req, res) => {
        req.on('data', () => {});
        req.on('end', () => res.writeHead(201).end());
      }),
    );
    let pushed = false;
    const body = new Readable({
      read() {
        if (!pushed) this.push(Buffer.alloc(64 * 1024));
        pushed = true; // then nothing, ever
      },
    });
    const err = await client(true, 500)
      .request({
        method: 'PUT',
        url: `http://127.0.0.1:${port}/upload`,
        headers: { 'content-length': String(BIG) },
        body,
        okStatuses: 'any',
      })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `PUT http://127.0.0.1:${port}/upload failed: the request's body brought nothing for 0.5 s`,
    );
  });
});

describe.each([false, true])('own connection: %s', (own) => {
  it('sends a body its owner had paused (undici resumes it)', async () => {
    let received = 0;
    const { port } = await listen(
      createHttp((req, res) => {
        req.on('data', (c: Buffer) => {
          received += c.length;
        });
        req.on('end', () => res.writeHead(201).end());
      }),
    );
    const body = Readable.from(generated(BIG).body);
    body.pause();
    const res = await client(own, 2_000).request({
      method: 'PUT',
      url: `http://127.0.0.1:${port}/upload`,
      headers: { 'content-length': String(BIG) },
      body,
      okStatuses: 'any',
    });
    expect(res.status).toBe(201);
    expect(received).toBe(BIG);
  });
});
