// `policy eval --batch` reads lines of at most 1 MiB (issue 20, item 12): a longer one is refused
// with one sentence (exit 2) before it is gathered whole, on the byte path and the text path, for
// any chunking; the real CLI refuses a 200 MB line with a 64 MiB heap, quickly.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { BatchProcessor } from '../../src/policy/batch.js';
import { MAX_LINE_BYTES } from '../../src/policy/batch-lines.js';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies } from '../../src/policy/engine.js';
import { type BundledBin, bundleBin } from '../support/bundled-bin.js';

const set = compilePolicies(
  await parsePolicyDocument(
    JSON.stringify([
      {
        name: 'p',
        rules: [{ name: 'gh', actions: ['connect:tcp'], decision: 'allow', resources: ['github.com'] }],
      },
    ]),
    'p.json',
  ),
);
const ok = '{"action":"connect:tcp","destination":"github.com:443"}\n';

/** Feeds `input` in the given chunk sizes; the thrown error, or undefined. */
function feed(input: Uint8Array, sizes: number[], text = false): unknown {
  const batch = new BatchProcessor(set);
  let at = 0;
  let i = 0;
  try {
    while (at < input.length) {
      const n = Math.max(1, sizes[i++ % sizes.length]!);
      const part = input.subarray(at, at + n);
      if (text) batch.push(Buffer.from(part).toString('latin1'));
      else batch.pushBytes(part);
      at += n;
    }
    if (text) batch.end();
    else batch.endBytes();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('the batch line cap', () => {
  it('refuses a line over 1 MiB naming its number, on both paths, whatever the chunking', () => {
    const long = Buffer.concat([
      Buffer.from(ok + ok),
      Buffer.alloc(MAX_LINE_BYTES + 10, 0x61),
      Buffer.from(`\n${ok}`),
    ]);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 4096, max: 300_000 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (sizes, text) => {
          const err = feed(long, sizes, text);
          expect(err).toBeInstanceOf(ValidationError);
          expect((err as Error).message).toBe(
            'line 3 of the batch is longer than 1 MiB; a request is one short line',
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it('takes lines up to the cap (a long line is an error record, not a refusal)', () => {
    const line = Buffer.concat([
      Buffer.from('connect:tcp '),
      Buffer.alloc(MAX_LINE_BYTES - 20, 0x61),
      Buffer.from('\n'),
    ]);
    expect(feed(Buffer.concat([line, Buffer.from(ok)]), [65536])).toBeUndefined();
  });

  it('refuses a line with no newline at all', () => {
    expect(feed(Buffer.alloc(MAX_LINE_BYTES + 1, 0x20), [MAX_LINE_BYTES + 1])).toBeInstanceOf(
      ValidationError,
    );
  });
});

describe('the real CLI on a 200 MB line', () => {
  let bin: BundledBin;
  beforeAll(async () => {
    bin = await bundleBin();
  });
  afterAll(() => bin?.remove());

  it('exits 2 with one sentence, in bounded memory and time', async () => {
    const policy = join(import.meta.dirname, '..', '..', 'examples', 'network.yaml');
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=64', bin.file, 'policy', 'eval', '--batch', '-f', policy],
      {
        env: { PATH: process.env.PATH, HUBCTL_CONFIG_DIR: '/nonexistent-hubctl-config' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.stdout.resume();
    child.stdin.on('error', () => undefined); // the CLI stops reading: EPIPE
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    let closed = false;
    child.once('exit', () => {
      closed = true;
    });
    while (!closed && sent < 200 * 1024 * 1024) {
      if (!child.stdin.write(chunk))
        await Promise.race([
          new Promise((r) => child.stdin.once('drain', r)),
          exited,
          new Promise((r) => setTimeout(r, 1000)),
        ]);
      sent += chunk.length;
    }
    child.stdin.destroy();
    const code = await exited;
    expect(code).toBe(2);
    expect(stderr).toBe('hubctl: line 1 of the batch is longer than 1 MiB; a request is one short line\n');
    // It stopped reading at the cap, long before the 200 MB were written.
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
