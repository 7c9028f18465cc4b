// A scriptable HTTP server on 127.0.0.1 for registry client tests: each test sets a handler and
// reads back the requests it received (method, URL, headers, body size).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bodyBytes: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => unknown;

export interface FakeServer {
  port: number;
  /** `127.0.0.1:PORT` */
  host: string;
  url: string;
  requests: Recorded[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startFakeServer(options: { readBody?: boolean } = {}): Promise<FakeServer> {
  let handler: Handler = (_req, res) => {
    res.statusCode = 500;
    res.end('no handler');
  };
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const rec: Recorded = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      bodyBytes: 0,
    };
    requests.push(rec);
    if (options.readBody === false) {
      Promise.resolve(handler(req, res, Buffer.alloc(0))).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    req.on('data', (c: Buffer) => {
      rec.bodyBytes += c.length;
      chunks.push(c);
    });
    req.on('end', () => {
      Promise.resolve(handler(req, res, Buffer.concat(chunks))).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(h) {
      handler = h;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
