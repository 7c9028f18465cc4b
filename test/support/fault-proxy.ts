// A fault-injecting reverse proxy for tests: it sits on 127.0.0.1 in front of a real server (the
// hub emulator, a registry), records every request with its Authorization header, and lets a test
// replace or bend chosen answers: rewritten JSON (foreign `next` links), answers of its own
// (endless pages), bodies cut mid-way, stalled, truncated or oversized, rewritten headers, answers
// delayed (each request's arrival and end are recorded, so a test can see what overlapped).
// A recorder (startRecorder) is a second listener on another origin that only records: where a
// leaked credential or a followed link would land.
//
//   const proxy = await startFaultProxy(hub.url);
//   proxy.on('GET', /^\/v2\/access-tokens$/, { kind: 'reset-mid-body', times: 1 });
//   ... run hubctl with HUBCTL_BASE_URL=proxy.url ...
//   proxy.seen  // [{ method, path, authorization }]
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  /** Path and query. */
  path: string;
  authorization?: string;
  /** The request's Connection field, if any (undici's say keep-alive; layers/h1.ts sends none). */
  connection?: string;
  /** A fault answered this request. */
  faulted?: boolean;
  /** When the request arrived and when its answer ended (ms since the epoch): overlaps. */
  at?: number;
  done?: number;
}

export type Fault =
  /** Forward, then change the JSON body (which is re-serialised with a right Content-Length). */
  | { kind: 'rewrite-json'; edit: (body: unknown, req: IncomingMessage) => unknown }
  /** Forward, then change headers of the answer. */
  | { kind: 'rewrite-headers'; edit: (headers: Record<string, string>) => Record<string, string> }
  /** Answer here, without the upstream server. */
  | {
      kind: 'answer';
      answer: (req: IncomingMessage) => { status: number; json?: unknown; headers?: Record<string, string> };
    }
  /** Forward, send the headers and half the body, then reset the connection. */
  | { kind: 'reset-mid-body' }
  /** Forward, send the headers and half the body, then send nothing more (the connection stays open). */
  | { kind: 'stall-mid-body' }
  /** Forward, announce the full Content-Length, send half the body and close cleanly. */
  | { kind: 'truncate' }
  /** Forward, send the headers and half the body, then one byte every `everyMs` (a drip). */
  | { kind: 'drip-mid-body'; everyMs: number }
  /** Forward after `ms` (a distant server), unchanged. */
  | { kind: 'delay'; ms: number }
  /** Answer 200 with `bytes` of JSON-ish filler, announced (Content-Length) or chunked. */
  | { kind: 'oversize'; bytes: number; announce: boolean };

interface Rule {
  method: string;
  path: RegExp;
  fault: Fault;
  /** Remaining uses; Infinity by default. */
  times: number;
}

export interface FaultProxy {
  url: string;
  host: string;
  port: number;
  seen: Seen[];
  /** Bytes written by 'oversize' answers before the client went away. */
  oversizeBytesSent: number;
  on(method: string, path: RegExp, fault: Fault, times?: number): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const rules: Rule[] = [];
  const seen: Seen[] = [];
  const state = { oversizeBytesSent: 0 };

  const server = createServer((req, res) => {
    const record: Seen = { method: req.method ?? 'GET', path: req.url ?? '/', at: Date.now() };
    if (req.headers.authorization) record.authorization = req.headers.authorization;
    if (req.headers.connection) record.connection = req.headers.connection;
    seen.push(record);
    res.on('close', () => {
      record.done = Date.now();
    });
    const pathOnly = (req.url ?? '/').split('?')[0] ?? '/';
    const rule = rules.find((r) => r.times > 0 && r.method === req.method && r.path.test(pathOnly));
    if (!rule) return forward(req, res, upstream, undefined);
    rule.times--;
    record.faulted = true;
    const f = rule.fault;
    if (f.kind === 'answer') {
      req.resume();
      const a = f.answer(req);
      const text = a.json === undefined ? '' : JSON.stringify(a.json);
      res.writeHead(a.status, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        ...a.headers,
      });
      res.end(text);
      return;
    }
    if (f.kind === 'delay') {
      setTimeout(() => forward(req, res, upstream, undefined), f.ms);
      return;
    }
    if (f.kind === 'oversize') {
      req.resume();
      return oversize(res, f.bytes, f.announce, state);
    }
    forward(req, res, upstream, f);
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    port,
    seen,
    get oversizeBytesSent() {
      return state.oversizeBytesSent;
    },
    on(method, path, fault, times = Number.POSITIVE_INFINITY) {
      rules.push({ method, path, fault, times });
    },
    clear() {
      rules.length = 0;
      seen.length = 0;
      state.oversizeBytesSent = 0;
    },
    close: () => closeServer(server),
  };
}

function forward(req: IncomingMessage, res: ServerResponse, upstream: URL, fault: Fault | undefined): void {
  const up = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: req.method,
      path: req.url,
      // The original Host, so that the server's own links and Locations name this proxy.
      headers: req.headers,
    },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () =>
        deliver(req, res, answer.statusCode ?? 502, flat(answer.headers), Buffer.concat(chunks), fault),
      );
    },
  );
  up.on('error', () => res.destroy());
  req.pipe(up);
}

function deliver(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  fault: Fault | undefined,
): void {
  delete headers['transfer-encoding'];
  delete headers.connection;
  if (fault?.kind === 'rewrite-headers') headers = fault.edit(headers);
  if (fault?.kind === 'rewrite-json' && status < 300) {
    body = Buffer.from(JSON.stringify(fault.edit(JSON.parse(body.toString('utf8')), req)));
  }
  headers['content-length'] = String(body.length);
  const half = body.subarray(0, Math.floor(body.length / 2));
  switch (fault?.kind) {
    case 'reset-mid-body':
      res.writeHead(status, headers);
      res.write(half, () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
      return;
    case 'stall-mid-body':
      res.writeHead(status, headers);
      res.write(half);
      return;
    case 'truncate':
      res.writeHead(status, headers);
      res.write(half, () => setTimeout(() => res.socket?.end(), 20));
      return;
    case 'drip-mid-body': {
      res.writeHead(status, headers);
      res.write(half);
      let at = half.length;
      const timer = setInterval(() => {
        if (at >= body.length || res.destroyed) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(body.subarray(at, at + 1));
        at++;
      }, fault.everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    default:
      res.writeHead(status, headers);
      res.end(body);
  }
}

/** Streams filler until `bytes` or until the client goes away, counting what was written. */
function oversize(
  res: ServerResponse,
  bytes: number,
  announce: boolean,
  state: { oversizeBytesSent: number },
): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(announce ? { 'content-length': String(bytes) } : {}),
  });
  const first = Buffer.alloc(64 * 1024, 0x20);
  first[0] = 0x5b; // '[': a JSON document that never closes
  const rest = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  const pump = () => {
    while (!gone && sent < bytes) {
      const part = sent === 0 ? first : rest;
      sent += part.length;
      state.oversizeBytesSent += part.length;
      if (!res.write(part)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!gone) res.end();
  };
  pump();
}

function flat(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export interface Recorder {
  url: string;
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A listener on another origin that records everything it receives and answers an empty page. */
export async function startRecorder(): Promise<Recorder> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      authorization: req.headers.authorization,
    });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ count: 0, next: null, previous: null, results: [], data: [], tags: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => closeServer(server),
  };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}
