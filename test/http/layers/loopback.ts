// Real HTTP for the layer tests: node:http servers on 127.0.0.1 that record what reached them, and
// the pieces to build a request and a stack of layers over undici's real wire.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterEach } from 'vitest';
import type { Layer, Outgoing, Send } from '../../../src/http/layers/exchange.js';
import { wire } from '../../../src/http/layers/wire.js';

export interface Hit {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Loopback {
  url: string;
  origin: string;
  hits: Hit[];
}

type Handler = (req: IncomingMessage, res: ServerResponse, hit: Hit) => void;

const open: Server[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const a of agents.splice(0)) await a.close();
});

/** A server on 127.0.0.1 (closed after each test) answering with `handler` once the body is in. */
export async function serve(handler: Handler): Promise<Loopback> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      hits.push(hit);
      handler(req, res, hit);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  open.push(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: origin, origin, hits };
}

/** A port nothing listens on (a server was there a moment ago). */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

/** undici's real wire, through an agent of this test's own. */
export function realWire(proxy?: string): Send {
  const agent = new Agent();
  agents.push(agent);
  return wire(() => ({ dispatcher: agent, ...(proxy ? { proxy } : {}) }));
}

/** `layers` around `inner`, the first outermost, as client.ts stacks them. */
export function stack(inner: Send, ...layers: Layer[]): Send {
  return layers.reduceRight((next, layer) => layer(next), inner);
}

export function outgoing(url: string, more: Partial<Outgoing> = {}): Outgoing {
  return {
    method: 'GET',
    url: new URL(url),
    headers: {},
    body: undefined,
    timeoutMs: 5_000,
    attempts: { retried: 0 },
    ...more,
  };
}

/** Sends a status (and headers) with an empty body. */
export function reply(status: number, headers: Record<string, string> = {}, body = ''): Handler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

/** Answers in turn with each handler; the last one answers every request after. */
export function inTurn(...handlers: Handler[]): Handler {
  let i = 0;
  return (req, res, hit) => handlers[Math.min(i++, handlers.length - 1)]?.(req, res, hit);
}

/** Announces `length` bytes, sends half of them, then cuts the connection. */
export function cutMidBody(length = 1000): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-length': String(length) });
    res.write('x'.repeat(length / 2), () => res.socket?.destroy());
  };
}

/** The whole of an answer's body, as text. */
export async function textOf(body: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
