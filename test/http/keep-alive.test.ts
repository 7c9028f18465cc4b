// Connections are kept between requests, HEAD included: a sync of many tags sends hundreds of HEADs
// (a blob's existence at both ends), and undici by default closes the connection after each one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createHttpClient } from '../../src/http/client.js';

let server: Server;
let origin: string;
let connections: number;

beforeEach(async () => {
  connections = 0;
  server = createServer((req, res) => {
    if (req.url === '/missing') {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': '21' });
      res.end(req.method === 'HEAD' ? undefined : '{"errors":["absent"]}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '5' });
    res.end(req.method === 'HEAD' ? undefined : 'hello');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

it('HEADs, found or not, and GETs one after the other do not open a connection each', async () => {
  const http = createHttpClient({ userAgent: 'test', clock: systemClock });
  const sent: string[] = [];
  for (let i = 0; i < 4; i++) {
    for (const [method, path] of [
      ['HEAD', '/blob'],
      ['HEAD', '/missing'],
      ['GET', '/blob'],
      ['GET', '/missing'],
    ] as const) {
      const res = await http.request({ method, url: `${origin}${path}`, okStatuses: 'any' });
      sent.push(`${method} ${res.status}`);
      if (method === 'GET') await res.text();
      else await res.dump();
    }
  }
  expect(sent.slice(0, 4)).toEqual(['HEAD 200', 'HEAD 404', 'GET 200', 'GET 404']);
  expect(sent).toHaveLength(16);
  // Eight HEADs: undici's default closes the connection after each (9 connections or more). Its
  // pool may open a second one while the first is being released after the first answer.
  expect(connections).toBeLessThanOrEqual(2);
});
