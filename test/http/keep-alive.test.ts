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
/** Each request the server received, as `METHOD path`. */
let received: string[];

beforeEach(async () => {
  connections = 0;
  received = [];
  server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/slow')) {
      setTimeout(() => res.end('slow'), 50);
      return;
    }
    if (req.method === 'PUT') {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-length': '0' }).end());
      return;
    }
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
  // Eight HEADs: undici's default closes the connection after each (9 connections or more); and
  // each request, sent as the one before ends, waits for that one's connection to be free again.
  expect(connections).toBe(1);
});

it('a request sent as the one before it ends takes its connection, and is sent once', async () => {
  const http = createHttpClient({ userAgent: 'test', clock: systemClock });
  // No await between the end of one answer and the next request: as a command's next step is.
  await (await http.request({ url: `${origin}/v2/` })).dump();
  const put = await http.request({ method: 'PUT', url: `${origin}/put/1`, body: Buffer.from('abc') });
  expect(put.status).toBe(201);
  await put.dump();
  for (let i = 0; i < 3; i++) await (await http.request({ url: `${origin}/blob/${i}` })).text();
  expect(received).toEqual(['GET /v2/', 'PUT /put/1', 'GET /blob/0', 'GET /blob/1', 'GET /blob/2']);
  expect(connections).toBe(1);
});

it('requests at once still get a connection each', async () => {
  const http = createHttpClient({ userAgent: 'test', clock: systemClock });
  await (await http.request({ url: `${origin}/blob` })).text();
  const answers = await Promise.all(
    [1, 2, 3].map(async (i) => (await http.request({ url: `${origin}/slow/${i}` })).text()),
  );
  expect(answers).toEqual(['slow', 'slow', 'slow']);
  expect(received.filter((r) => r.startsWith('GET /slow/')).sort()).toEqual([
    'GET /slow/1',
    'GET /slow/2',
    'GET /slow/3',
  ]);
  expect(connections).toBe(3);
});

it('a request cancelled while it waits for the connection is never sent', async () => {
  const http = createHttpClient({ userAgent: 'test', clock: systemClock });
  await (await http.request({ url: `${origin}/blob` })).text();
  const controller = new AbortController();
  const pending = http.request({ url: `${origin}/cancelled`, signal: controller.signal });
  controller.abort(new Error('cancelled by the test'));
  await expect(pending).rejects.toThrow();
  await (await http.request({ url: `${origin}/blob` })).text();
  expect(received).toEqual(['GET /blob', 'GET /blob']);
});

it.each([
  ['collected', { collect: true }],
  ['streamed', { stream: true }],
])('a %s GET cancelled while it waits for the connection is never sent, and fails', async (_, how) => {
  const http = createHttpClient({ userAgent: 'test', clock: systemClock });
  await (await http.request({ url: `${origin}/blob` })).text();
  const controller = new AbortController();
  const pending = http.request({ url: `${origin}/cancelled`, signal: controller.signal, ...how });
  controller.abort(new Error('cancelled by the test'));
  await expect(pending).rejects.toThrow();
  await (await http.request({ url: `${origin}/blob`, ...how })).text();
  // (Its connection is closed with it, as undici does with a request aborted as it is written.)
  expect(received).toEqual(['GET /blob', 'GET /blob']);
});
