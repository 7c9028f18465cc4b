// Real servers and a recording handler for the blob transport's tests (src/http/layers/h1.ts):
// servers on 127.0.0.1 that count their connections (none may stay open after an exchange, and
// each is closed after each test), one exchange through h1.ts recorded callback by callback (exactly
// one onResponseEnd or onResponseError), and the same exchange through undici's dispatch, the
// expectation h1.ts must meet.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, afterEach, expect } from 'vitest';
import { exchangeOnce, type H1Options } from '../../../src/http/layers/h1.js';

export function pattern(n: number, seed = 7): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * seed) % 251;
  return b;
}
export const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
export const MiB = 1024 * 1024;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- servers that count their connections -------------------------------------------------------

export interface Tracked {
  url: string;
  port: number;
  /** Connections accepted so far, and those still open. */
  accepted: number;
  open: Set<Socket>;
}
const servers: { server: Server | ReturnType<typeof createNetServer>; tracked: Tracked }[] = [];

export async function listen(
  server: Server | ReturnType<typeof createNetServer>,
  scheme = 'http',
  host = '127.0.0.1',
): Promise<Tracked> {
  const tracked: Tracked = { url: '', port: 0, accepted: 0, open: new Set() };
  server.on(scheme === 'https' ? 'secureConnection' : 'connection', (s: Socket) => {
    tracked.accepted++;
    tracked.open.add(s);
    s.on('close', () => tracked.open.delete(s));
  });
  if (scheme === 'https') {
    // A handshake that fails never becomes a secure connection: count the raw one too.
    server.on('connection', (s: Socket) => {
      tracked.open.add(s);
      s.on('close', () => tracked.open.delete(s));
    });
  }
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  tracked.port = (server.address() as AddressInfo).port;
  tracked.url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${tracked.port}`;
  servers.push({ server, tracked });
  return tracked;
}

/** An http server; `handler` answers at once (the request's body may still be coming). */
export function http(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Tracked> {
  return listen(createServer(handler));
}

/** A raw TCP server: `onHead` runs once the request's head is in, with the socket and the head. */
export function raw(onHead: (socket: Socket, head: string) => void): Promise<Tracked> {
  return listen(
    createNetServer((socket) => {
      let buf = '';
      let seen = false;
      socket.on('error', () => undefined);
      socket.on('data', (b: Buffer) => {
        if (seen) return;
        buf += b.toString('latin1');
        const end = buf.indexOf('\r\n\r\n');
        if (end >= 0) {
          seen = true;
          onHead(socket, buf.slice(0, end));
        }
      });
    }),
  );
}

/** Every connection of every server closes soon after its exchange: nothing is left open. */
export async function allClosed(): Promise<void> {
  const deadline = Date.now() + 2_000;
  for (const { tracked } of servers) {
    // A server that stopped reading hears the client's close only once it reads again.
    for (const s of tracked.open) s.resume();
    while (tracked.open.size > 0 && Date.now() < deadline) await sleep(10);
    expect(tracked.open.size, `connections left open to ${tracked.url}`).toBe(0);
  }
}

afterEach(async () => {
  for (const { server, tracked } of servers.splice(0)) {
    for (const s of tracked.open) s.destroy();
    (server as Server).closeAllConnections?.();
    await new Promise((r) => server.close(r));
  }
});

// --- a recording handler ----------------------------------------------------------------------

export interface Trace {
  events: string[];
  statuses: number[];
  headers?: Record<string, string | string[] | undefined>;
  data: Buffer[];
  error?: Error;
  ends: number;
  errors: number;
  controller?: Dispatcher.DispatchController;
}

export interface Hooks {
  onRequestStart?(c: Dispatcher.DispatchController): void;
  onResponseStart?(c: Dispatcher.DispatchController, status: number): void;
  onResponseData?(c: Dispatcher.DispatchController, chunk: Buffer, rec: Trace): void;
}

export function recorder(hooks: Hooks = {}): {
  handler: Dispatcher.DispatchHandler;
  rec: Trace;
  done: Promise<Trace>;
} {
  const rec: Trace = { events: [], statuses: [], data: [], ends: 0, errors: 0 };
  let settle: (r: Trace) => void = () => {};
  const done = new Promise<Trace>((r) => {
    settle = r;
  });
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(c) {
      rec.controller = c;
      rec.events.push('start');
      hooks.onRequestStart?.(c);
    },
    onResponseStart(c, status, headers) {
      rec.events.push(`status ${status}`);
      rec.statuses.push(status);
      if (status >= 200) rec.headers = headers as Record<string, string | string[] | undefined>;
      hooks.onResponseStart?.(c, status);
    },
    onResponseData(c, chunk) {
      rec.events.push('data');
      rec.data.push(Buffer.from(chunk));
      hooks.onResponseData?.(c, chunk, rec);
    },
    onResponseEnd() {
      rec.events.push('end');
      rec.ends++;
      settle(rec);
    },
    onResponseError(_c, err) {
      rec.events.push('error');
      rec.errors++;
      rec.error ??= err;
      settle(rec);
    },
  };
  return { handler, rec, done };
}

export type Opts = Omit<Partial<H1Options>, 'url'> & { url: URL | string };

export function h1Options(o: Opts): H1Options {
  return {
    method: 'GET',
    headers: {},
    headersTimeout: 2_000,
    bodyTimeout: 2_000,
    ...o,
    url: typeof o.url === 'string' ? new URL(o.url) : o.url,
  };
}

/**
 * One exchange through h1.ts; resolves when it ended, after a moment in which nothing more may
 * happen: exactly one of onResponseEnd and onResponseError, once.
 */
export async function exchange(o: Opts, hooks: Hooks = {}): Promise<Trace> {
  const { handler, done } = recorder(hooks);
  exchangeOnce(h1Options(o), handler);
  const rec = await done;
  const events = rec.events.length;
  await sleep(50);
  expect(rec.ends + rec.errors).toBe(1);
  expect(rec.events.length, `events after the end: ${rec.events.slice(events)}`).toBe(events);
  return rec;
}

/** The same exchange through undici's dispatch (the expectation h1.ts must meet). */
export const agents: Agent[] = [];
afterAll(async () => {
  for (const a of agents.splice(0)) if (!a.destroyed) await a.close();
});
export async function viaUndici(o: Opts, hooks: Hooks = {}, connect: { ca?: string[] } = {}): Promise<Trace> {
  const opts = h1Options(o);
  const agent = new Agent({ connect });
  agents.push(agent);
  const { handler, done } = recorder(hooks);
  agent.dispatch(
    {
      origin: opts.url.origin,
      path: `${opts.url.pathname}${opts.url.search}`,
      method: opts.method as Dispatcher.HttpMethod,
      headers: opts.headers,
      body: opts.body as Dispatcher.DispatchOptions['body'],
      headersTimeout: opts.headersTimeout,
      bodyTimeout: opts.bodyTimeout,
    },
    handler,
  );
  const rec = await done;
  await sleep(50);
  expect(rec.ends + rec.errors).toBe(1);
  // undici keeps the connection for the next request: let it go, so that allClosed() holds for h1's.
  await agent.destroy();
  return rec;
}

export const code = (rec: Trace) => (rec.error as { code?: string } | undefined)?.code;
export const bytes = (rec: Trace) => Buffer.concat(rec.data);

/** A stream of `size` bytes in pieces of `piece`, made as it is read (never all in memory). */
export function generated(size: number, piece = 64 * 1024): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(piece, left);
      left -= n;
      this.push(Buffer.alloc(n, 0x61));
    },
  });
}
