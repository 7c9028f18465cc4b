import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli.js';

// `policy eval --batch` writes bytes to a real stream: with a slow consumer (a pipe that fills),
// it waits for 'drain' and the output arrives complete, in order, unchanged.
describe('policy eval --batch on a stream with backpressure', () => {
  it('writes every decision, in order, to a slow stdout', async () => {
    const n = 40_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      lines.push(
        i % 3 === 0
          ? `{"action":"connect:tcp","destination":"registry.npmjs.org"}`
          : i % 3 === 1
            ? `{"action":"connect:tcp","destination":"h${i}.example.org:22"}`
            : `connect:tcp 169.254.169.254:80`,
      );
    }
    const input = Buffer.from(`${lines.join('\n')}\n`);
    // stdin in odd-sized chunks, so lines and the fast path straddle chunk boundaries
    const chunks: Buffer[] = [];
    for (let i = 0; i < input.length; i += 4093) chunks.push(input.subarray(i, i + 4093));
    const received: Buffer[] = [];
    let writes = 0;
    let drains = 0;
    const stdout = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, cb) {
        writes++;
        // hold on to the very bytes given: a writer that reuses its buffer would corrupt them
        received.push(chunk);
        setImmediate(cb);
      },
    });
    stdout.on('drain', () => drains++);
    let stderr = '';
    const home = mkdtempSync(join(tmpdir(), 'hubctl-batch-'));
    const code = await main(['policy', 'eval', '--batch', '-f', 'examples/network.yaml'], {
      io: {
        stdout,
        stderr: { write: (s: string) => (stderr += s) },
        stdin: Readable.from(chunks),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdinIsTTY: false,
      },
      env: { HUBCTL_CONFIG_DIR: home, HOME: home },
    });
    await new Promise<void>((resolve) => stdout.end(resolve));
    expect(code).toBe(0);
    expect(drains).toBeGreaterThan(0);
    expect(writes).toBeGreaterThan(1);
    const out = Buffer.concat(received).toString('utf8').split('\n');
    expect(out.pop()).toBe('');
    expect(out).toHaveLength(n);
    for (let i = 0; i < n; i += 997) {
      const d = JSON.parse(out[i]!);
      if (i % 3 === 0) expect(d).toMatchObject({ destination: 'registry.npmjs.org', decision: 'allow' });
      else if (i % 3 === 1)
        expect(d).toMatchObject({ destination: `h${i}.example.org:22`, decision: 'deny' });
      else expect(d).toMatchObject({ destination: '169.254.169.254:80', decision: 'deny' });
    }
    expect(stderr).toContain(`${n} requests:`);
  });
});
