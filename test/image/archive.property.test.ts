// Archives and tar headers from outside (issue 20, items 12, 13, 16): generated malformed and
// oversized tars (mutated header bytes, size fields, pax records with any declared size, cut
// files, any JSON as index.json or manifest.json) are either read or refused with one typed
// sentence (exit 1, 2 or 5: never 7, never "unexpected"), in bounded memory and time, and a copy
// from them writes nothing outside its destination. The engine's streamed tar reader gets the same.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubctlError } from '../../src/errors.js';
import { DockerArchiveSource } from '../../src/image/docker-archive.js';
import { readTarStream } from '../../src/image/engine/tar-stream.js';
import { OciArchiveSource } from '../../src/image/oci-archive.js';
import { padding, tarHeader } from '../../src/image/tar.js';
import { runCli } from '../support/run-cli.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;

function entry(name: string, data: Buffer, type = '0'): Buffer {
  return Buffer.concat([tarHeader(name, data.length, 0, type), data, Buffer.alloc(padding(data.length))]);
}

/** A pax record `len key=value\n` with a correct length. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = body.length + 1;
  while (String(len).length + body.length !== len) len = String(len).length + body.length;
  return `${len}${body}`;
}

/** A small oci-archive: oci-layout, index.json (given), one manifest blob. */
function archive(indexJson: string, extra: Buffer[] = []): Buffer {
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: DIGEST, size: 2 },
      layers: [],
    }),
  );
  return Buffer.concat([
    entry('oci-layout', Buffer.from('{"imageLayoutVersion":"1.0.0"}')),
    ...extra,
    entry('index.json', Buffer.from(indexJson)),
    entry(`blobs/sha256/${'b'.repeat(64)}`, manifest),
    Buffer.alloc(1024),
  ]);
}

const GOOD_INDEX = JSON.stringify({
  schemaVersion: 2,
  manifests: [
    {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest: `sha256:${'b'.repeat(64)}`,
      size: 10,
      annotations: { 'org.opencontainers.image.ref.name': 'x' },
    },
  ],
});

/** What opening and resolving an archive does: ok, or the error's exit code and message. */
async function readArchive(path: string, kind: 'oci' | 'docker', tag: string | undefined) {
  try {
    const src =
      kind === 'oci'
        ? await OciArchiveSource.open('a', path, tag)
        : await DockerArchiveSource.open('a', path, tag);
    const d = await src.resolve();
    await src.getManifest(d).catch((err) => {
      if (!(err instanceof HubctlError)) throw err;
    });
    return { ok: true as const };
  } catch (err) {
    return { ok: false as const, err };
  }
}

function expectOneTypedSentence(err: unknown): void {
  expect(err).toBeInstanceOf(HubctlError);
  const e = err as HubctlError;
  expect([1, 2, 5]).toContain(e.exitCode);
  expect(e.message).not.toContain('\n');
  expect(e.message.length).toBeLessThan(1000);
  if (e.hint) expect(e.hint.length).toBeLessThan(1000);
}

describe('archives from outside', () => {
  let dir: string;
  let n = 0;
  const file = (bytes: Buffer) => {
    const p = join(dir, `a-${++n}.tar`);
    writeFileSync(p, bytes);
    return p;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hubctl-archive-prop-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('mutated header bytes, cut files and odd size fields: read, or one typed sentence', async () => {
    const base = archive(GOOD_INDEX);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.option(fc.nat(base.length), { nil: undefined }),
        fc.option(
          fc.oneof(
            fc.stringMatching(/^[0-7 \0]{0,11}$/),
            fc.constant('77777777777'),
            fc.constant('\x80\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff'),
            fc.string({ maxLength: 11 }),
          ),
          { nil: undefined },
        ),
        fc.constantFrom('oci' as const, 'docker' as const),
        async (flips, cut, sizeField, kind) => {
          const bytes = Buffer.from(base);
          for (const [at, v] of flips) bytes[at] = v;
          if (sizeField !== undefined) bytes.write(sizeField.padEnd(12, '\0'), 512 * 2 + 124, 12, 'latin1');
          const path = file(cut === undefined ? bytes : bytes.subarray(0, cut));
          const r = await readArchive(path, kind, undefined);
          if (!r.ok) expectOneTypedSentence(r.err);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('pax records of any declared size and content: refused past 1 MiB without reading them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 0, max: 4096 }), fc.integer({ min: 1 << 20, max: 2 ** 40 })),
        fc.array(fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 200 })), { maxLength: 5 }),
        fc.string({ maxLength: 300 }),
        async (declared, records, junk) => {
          const data = Buffer.from(records.map(([k, v]) => paxRecord(k || 'path', v)).join('') + junk);
          // The header declares `declared` bytes whatever follows (a lie, or the truth when small).
          const header = tarHeader('PaxHeader/x', declared, 0, 'x');
          const pax = Buffer.concat([header, data, Buffer.alloc(padding(data.length))]);
          const path = file(archive(GOOD_INDEX, [pax]));
          const before = process.memoryUsage().rss;
          const r = await readArchive(path, 'oci', 'x');
          expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
          if (declared > 1 << 20) {
            expect(r.ok).toBe(false);
            expect((r as { err: Error }).err.message).toMatch(
              /declares \d+ bytes, over the 1024 KiB hubctl reads/,
            );
          }
          if (!r.ok) expectOneTypedSentence(r.err);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('any JSON as index.json or manifest.json: read, or one typed sentence', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.record({ manifests: fc.array(fc.anything(), { maxLength: 4 }) }).map((o) => JSON.stringify(o)),
          fc
            .array(fc.record({ Config: fc.anything(), RepoTags: fc.anything(), Layers: fc.anything() }), {
              maxLength: 3,
            })
            .map((o) => JSON.stringify(o)),
        ),
        fc.constantFrom('oci' as const, 'docker' as const),
        fc.option(fc.constantFrom('x', 'app:1', '@0', '@7', '@x'), { nil: undefined }),
        async (text, kind, tag) => {
          const extra = kind === 'docker' ? [entry('manifest.json', Buffer.from(text))] : [];
          const path = file(archive(kind === 'oci' ? text : 'not json', extra));
          const r = await readArchive(path, kind, tag);
          if (!r.ok) expectOneTypedSentence(r.err);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a copy from a malformed archive writes nothing outside its destination', async () => {
    const base = archive(GOOD_INDEX);
    const sandbox = join(dir, 'sandbox');
    mkdirSync(sandbox);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        async (flips) => {
          const bytes = Buffer.from(base);
          for (const [at, v] of flips) bytes[at] = v;
          const src = join(sandbox, 'in.tar');
          writeFileSync(src, bytes);
          const dest = join(sandbox, 'out');
          const r = await runCli(['--quiet', 'image', 'copy', `oci-archive:${src}`, `oci:${dest}:1`], {});
          expect([0, 1, 2, 5]).toContain(r.code);
          expect(r.stderr).not.toMatch(/unexpected error/);
          expect(readdirSync(sandbox).sort()).toEqual(
            readdirSync(sandbox).includes('out') ? ['in.tar', 'out'] : ['in.tar'],
          );
          rmSync(dest, { recursive: true, force: true });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a missing tag among 100,000 images lists a few names and says how many more (item 13)', async () => {
    const manifests = Array.from({ length: 100_000 }, (_, i) => ({
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest: DIGEST,
      size: 1,
      annotations: { 'org.opencontainers.image.ref.name': `tag-${i}` },
    }));
    const path = file(archive(JSON.stringify({ schemaVersion: 2, manifests })));
    const r = await runCli(['image', 'inspect', `oci-archive:${path}:missing`], {});
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      `hubctl: no image tagged "missing" in ${path}\nTags there: tag-0, tag-1, tag-2, tag-3, tag-4 and 99,995 more.\n`,
    );
    const legacy = Array.from({ length: 100_000 }, (_, i) => ({
      Config: 'c.json',
      RepoTags: [`app:${i}`],
      Layers: [],
    }));
    const dpath = file(
      Buffer.concat([entry('manifest.json', Buffer.from(JSON.stringify(legacy))), Buffer.alloc(1024)]),
    );
    const d = await runCli(['image', 'inspect', `docker-archive:${dpath}:other:1`], {});
    expect(d.code).toBe(5);
    expect(d.stderr.length).toBeLessThan(400);
    expect(d.stderr).toContain('and 99,995 more.');
  });
});

describe("the engine export's streamed tar reader", () => {
  async function readAll(bytes: Buffer, chunk: number): Promise<unknown> {
    async function* source() {
      for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
    }
    try {
      for await (const e of readTarStream(source(), 'exporting x')) {
        for await (const _ of e.body) {
          // drained
        }
      }
      return undefined;
    } catch (err) {
      return err;
    }
  }

  it('mutated, cut or lying streams end, or fail with one typed sentence', async () => {
    const base = archive(GOOD_INDEX, [
      entry('PaxHeader/y', Buffer.from(paxRecord('path', 'long/name')), 'x'),
    ]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.option(fc.nat(base.length), { nil: undefined }),
        fc.integer({ min: 1, max: 4096 }),
        async (flips, cut, chunk) => {
          const bytes = Buffer.from(base);
          for (const [at, v] of flips) bytes[at] = v;
          const err = await readAll(cut === undefined ? bytes : bytes.subarray(0, cut), chunk);
          if (err !== undefined) expectOneTypedSentence(err);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a pax header declaring 600 MiB is refused before it is read', async () => {
    const header = tarHeader('PaxHeader/z', 600 * 1024 * 1024, 0, 'x');
    const before = process.memoryUsage().rss;
    const err = await readAll(Buffer.concat([header, Buffer.alloc(4096)]), 512);
    expect((err as Error).message).toBe(
      'exporting x: a tar extended header declares 629145600 bytes, over the 1024 KiB hubctl reads',
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });
});
