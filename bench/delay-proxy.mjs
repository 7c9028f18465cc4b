#!/usr/bin/env node
// bench/delay-proxy.mjs — a TCP proxy that gives loopback servers a network's round-trip time, for
// benches that ask what concurrency buys against distant registries.
//
//   node bench/delay-proxy.mjs RTT_MS HOST:PORT [HOST:PORT…]
//
// Listens on one 127.0.0.1 port per target and prints them as a JSON array on its first line of
// stdout. Each byte waits RTT/2 on its way in each direction (so a request and its answer take one
// RTT more than on loopback), and a new connection's first bytes wait one RTT more (the TCP
// handshake). Order is kept per connection and direction; the bandwidth is loopback's. Run as a
// child process, so that its CPU is its own (a bench reads it from /proc), not the client's.

import { connect, createServer } from 'node:net';
import { performance } from 'node:perf_hooks';

const rtt = Number(process.argv[2]);
const targets = process.argv.slice(3).map((t) => {
  const [host, port] = t.split(':');
  return { host, port: Number(port) };
});
if (!(rtt >= 0) || targets.length === 0) {
  console.error('usage: delay-proxy.mjs RTT_MS HOST:PORT [HOST:PORT…]');
  process.exit(2);
}

/** Writes what `from` sends to `to`, each chunk at the time `when()` gives it (never earlier than the one before). */
function delayed(from, to, when) {
  const queue = [];
  let scheduled = false;
  let last = 0;
  const pump = () => {
    scheduled = false;
    const now = performance.now();
    while (queue.length > 0 && queue[0].at <= now + 0.25) {
      const { chunk } = queue.shift();
      if (chunk === null) to.end();
      else to.write(chunk);
    }
    if (queue.length > 0) {
      scheduled = true;
      setTimeout(pump, queue[0].at - now);
    }
  };
  const push = (chunk) => {
    last = Math.max(last, when());
    queue.push({ at: last, chunk });
    if (!scheduled) {
      scheduled = true;
      setTimeout(pump, Math.max(0, queue[0].at - performance.now()));
    }
  };
  from.on('data', (chunk) => push(chunk));
  from.on('end', () => push(null));
}

const ports = [];
for (const target of targets) {
  const server = createServer((client) => {
    client.setNoDelay(true);
    const upstream = connect(target);
    upstream.setNoDelay(true);
    const opened = performance.now();
    // Up: the handshake's round trip before the first bytes, then half a round trip each.
    delayed(client, upstream, () => Math.max(performance.now(), opened + rtt) + rtt / 2);
    delayed(upstream, client, () => performance.now() + rtt / 2);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', () => setTimeout(() => upstream.destroy(), 2 * rtt));
    upstream.on('close', () => setTimeout(() => client.destroy(), 2 * rtt));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push(server.address().port);
}
process.stdout.write(`${JSON.stringify(ports)}\n`);
process.on('SIGTERM', () => process.exit(0));
