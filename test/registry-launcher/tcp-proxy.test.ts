import { createHash } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithRegistry, startRegistry } from '../support/registry.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

/** A target that records what each connection sent and answers with `reply` (then ends). */
async function startTarget(reply: Buffer): Promise<{ server: Server; port: number; received: Buffer[] }> {
  const received: Buffer[] = [];
  const server = createServer((s) => {
    const chunks: Buffer[] = [];
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('close', () => received.push(Buffer.concat(chunks)));
    s.on('error', () => {});
    s.end(reply);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, received };
}

/** Sends `data`, collects what comes back until the connection closes. */
function exchange(port: number, data: Buffer): Promise<{ got: Buffer; error: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error = false;
    const s: Socket = connect(port, '127.0.0.1', () => s.write(data));
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => {
      error = true;
    });
    s.on('close', () => resolve({ got: Buffer.concat(chunks), error }));
  });
}

const waitFor = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('tcp proxy', () => {
  let proxy: TcpProxy | undefined;
  let target: Awaited<ReturnType<typeof startTarget>> | undefined;
  afterEach(async () => {
    await proxy?.close();
    await new Promise((r) => (target ? target.server.close(r) : r(undefined)));
    proxy = undefined;
    target = undefined;
  });

  const payload = Buffer.alloc(256 * 1024, 7);

  it('passes bytes both ways unchanged and counts them', async () => {
    target = await startTarget(payload);
    proxy = await startTcpProxy('127.0.0.1', target.port);
    expect(proxy.host).toBe(`127.0.0.1:${proxy.port}`);
    const up = Buffer.from('hello through the proxy');
    const r = await exchange(proxy.port, up);
    expect(r.got.equals(payload)).toBe(true);
    await waitFor(() => target!.received.length === 1);
    expect(target.received[0]!.equals(up)).toBe(true);
    expect(proxy.stats()).toMatchObject({ connections: 1, up: up.length, down: payload.length });
  });

  it('cuts a download after n bytes, once', async () => {
    target = await startTarget(payload);
    proxy = await startTcpProxy('127.0.0.1', target.port);
    proxy.cutAfterBytes(100_000, 'down');
    const fired = proxy.nextEvent();
    const cut = await exchange(proxy.port, Buffer.from('x'));
    expect(cut.got.length).toBe(100_000);
    expect(await fired).toEqual({ type: 'cut', direction: 'down', offset: 100_000 });
    expect(proxy.stats().down).toBe(100_000); // counts what went through, not what was dropped
    const again = await exchange(proxy.port, Buffer.from('x'));
    expect(again.got.equals(payload)).toBe(true);
  });

  it('cuts an upload after n bytes, counting across connections from when it was armed', async () => {
    target = await startTarget(Buffer.alloc(0));
    proxy = await startTcpProxy('127.0.0.1', target.port);
    await exchange(proxy.port, Buffer.alloc(500, 1)); // before arming: not counted
    proxy.cutAfterBytes(1500, 'up');
    await exchange(proxy.port, Buffer.alloc(1000, 2)); // 1000 counted, passes
    await exchange(proxy.port, Buffer.alloc(1000, 3)); // cut after 500 more
    await waitFor(() => target!.received.length === 3);
    expect(target.received.map((b) => b.length)).toEqual([500, 1000, 500]);
    expect(proxy.events).toEqual([{ type: 'cut', direction: 'up', offset: 1500 }]);
  });

  it('flips exactly one byte at the offset in either direction', async () => {
    target = await startTarget(payload);
    proxy = await startTcpProxy('127.0.0.1', target.port);
    proxy.corruptByteAt(12_345, 'down');
    proxy.corruptByteAt(3, 'up');
    const r = await exchange(proxy.port, Buffer.from('abcdef'));
    const diff = [...r.got].flatMap((b, i) => (b === payload[i] ? [] : [i]));
    expect(diff).toEqual([12_345]);
    expect(r.got[12_345]).toBe(7 ^ 0xff);
    await waitFor(() => target!.received.length === 1);
    expect(target.received[0]!.toString('latin1')).toBe(
      `abc${String.fromCharCode('d'.charCodeAt(0) ^ 0xff)}ef`,
    );
  });

  it('passthrough() disarms pending faults; close() drops open connections', async () => {
    target = await startTarget(payload);
    proxy = await startTcpProxy('127.0.0.1', target.port);
    proxy.cutAfterBytes(10, 'down');
    proxy.corruptByteAt(5, 'down');
    proxy.passthrough();
    expect((await exchange(proxy.port, Buffer.from('x'))).got.equals(payload)).toBe(true);
    expect(proxy.events).toEqual([]);
  });
});

describeWithRegistry('tcp proxy in front of a real registry', () => {
  it('a cut blob download is short; a corrupted one fails its digest; a clean one matches', async () => {
    const registry = await startRegistry({ auth: 'none' });
    const [, portText] = registry.host.split(':');
    const proxy = await startTcpProxy('127.0.0.1', Number(portText));
    try {
      const blob = Buffer.alloc(2 * 1024 * 1024);
      for (let i = 0; i < blob.length; i++) blob[i] = (i * 31) & 0xff;
      const digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
      const start = await fetch(`${registry.url}/v2/t/app/blobs/uploads/`, { method: 'POST' });
      const loc = new URL(start.headers.get('location')!, registry.url);
      loc.searchParams.set('digest', digest);
      expect((await fetch(loc, { method: 'PUT', body: blob })).status).toBe(201);

      const viaProxy = `http://${proxy.host}/v2/t/app/blobs/${digest}`;
      proxy.cutAfterBytes(1024 * 1024, 'down');
      await expect(fetch(viaProxy).then((r) => r.arrayBuffer())).rejects.toThrow();

      proxy.corruptByteAt(1024 * 1024, 'down');
      const corrupted = Buffer.from(await (await fetch(viaProxy)).arrayBuffer());
      expect(corrupted.length).toBe(blob.length);
      expect(`sha256:${createHash('sha256').update(corrupted).digest('hex')}`).not.toBe(digest);

      const clean = Buffer.from(await (await fetch(viaProxy)).arrayBuffer());
      expect(clean.equals(blob)).toBe(true);
    } finally {
      await proxy.close();
      await registry.stop();
    }
  });
});
