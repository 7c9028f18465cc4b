// A loopback TCP proxy for fault tests: it forwards connections to a target and can, once, cut a
// connection after a number of bytes or flip one byte, in either direction.
//
//   const proxy = await startTcpProxy('127.0.0.1', registryPort);
//   proxy.cutAfterBytes(1_000_000, 'up');   // the connection carrying the millionth byte upstream dies
//   ... run a push through `127.0.0.1:${proxy.port}` ...
//   proxy.passthrough();
//
// Offsets count the bytes of ALL connections in that direction from the moment the fault is
// armed (HTTP headers included). Each fault fires once, then the proxy passes everything through.
// 'up' is client → target, 'down' is target → client.
import { connect, createServer, type Socket } from 'node:net';

export type Direction = 'up' | 'down';

export interface ProxyEvent {
  type: 'cut' | 'corrupt';
  direction: Direction;
  /** Offset from the moment the fault was armed. */
  offset: number;
}

export interface TcpProxy {
  port: number;
  /** `127.0.0.1:PORT` */
  host: string;
  /** Once `n` bytes have gone in `direction`, destroy that connection (both sides), mid-stream. */
  cutAfterBytes(n: number, direction: Direction): void;
  /** Flip (XOR 0xff) the byte at `offset` in `direction`. */
  corruptByteAt(offset: number, direction: Direction): void;
  /** Disarm every pending fault. */
  passthrough(): void;
  /** Faults that fired, in order. */
  events: ProxyEvent[];
  /** Resolves when the next fault fires. */
  nextEvent(): Promise<ProxyEvent>;
  stats(): { connections: number; open: number; up: number; down: number };
  /** Destroy open connections (the server keeps listening). */
  dropConnections(): void;
  close(): Promise<void>;
}

interface Armed {
  kind: 'cut' | 'corrupt';
  /** Absolute position in the direction's byte stream. */
  at: number;
  start: number;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const totals: Record<Direction, number> = { up: 0, down: 0 };
  const armed: Record<Direction, Armed[]> = { up: [], down: [] };
  const events: ProxyEvent[] = [];
  let waiters: Array<(e: ProxyEvent) => void> = [];
  const open = new Set<Socket>();
  const clients = new Set<Socket>();
  let connections = 0;

  function fire(type: 'cut' | 'corrupt', direction: Direction, a: Armed): void {
    const e = { type, direction, offset: a.at - a.start };
    events.push(e);
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve(e);
  }

  function forward(direction: Direction, chunk: Buffer, src: Socket, dest: Socket, kill: () => void): void {
    const pos = totals[direction];
    totals[direction] += chunk.length;
    let data = chunk;
    let cutAt: number | undefined;
    for (const a of [...armed[direction]]) {
      if (a.at >= pos + chunk.length) continue;
      armed[direction].splice(armed[direction].indexOf(a), 1);
      if (a.kind === 'corrupt') {
        if (data === chunk) data = Buffer.from(chunk);
        const i = a.at - pos;
        data[i] = (data[i] ?? 0) ^ 0xff;
        fire('corrupt', direction, a);
      } else {
        cutAt = Math.min(cutAt ?? Number.POSITIVE_INFINITY, Math.max(0, a.at - pos));
        fire('cut', direction, a);
      }
    }
    if (cutAt !== undefined) {
      totals[direction] = pos + cutAt; // count what went through, not what was dropped
      src.pause();
      if (cutAt > 0) dest.write(data.subarray(0, cutAt), () => kill());
      else kill();
      return;
    }
    if (!dest.write(data)) {
      src.pause();
      dest.once('drain', () => src.resume());
    }
  }

  const server = createServer({ allowHalfOpen: true }, (client) => {
    connections++;
    const upstream = connect({ port: targetPort, host: targetHost, allowHalfOpen: true });
    clients.add(client);
    client.once('close', () => clients.delete(client));
    open.add(client);
    open.add(upstream);
    let dead = false;
    const kill = () => {
      dead = true;
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (c: Buffer) => {
      if (!dead) forward('up', c, client, upstream, kill);
    });
    upstream.on('data', (c: Buffer) => {
      if (!dead) forward('down', c, upstream, client, kill);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    for (const s of [client, upstream]) {
      s.on('error', kill);
      s.on('close', () => {
        open.delete(s);
        kill();
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    port,
    host: `127.0.0.1:${port}`,
    cutAfterBytes(n, direction) {
      armed[direction].push({ kind: 'cut', at: totals[direction] + n, start: totals[direction] });
    },
    corruptByteAt(offset, direction) {
      armed[direction].push({ kind: 'corrupt', at: totals[direction] + offset, start: totals[direction] });
    },
    passthrough() {
      armed.up = [];
      armed.down = [];
    },
    events,
    nextEvent: () => new Promise((resolve) => waiters.push(resolve)),
    stats: () => ({ connections, open: clients.size, up: totals.up, down: totals.down }),
    dropConnections() {
      for (const s of open) s.destroy();
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
