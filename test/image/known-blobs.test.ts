// The known-blobs state file: which repositories of a registry hold a blob (for mounts later). A
// copy's source and destination, and a sync's mappings, are remembered in one write of it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BatchedKnownBlobs,
  KnownBlobs,
  type KnownBlobsEntry,
  parseKnownBlobs,
} from '../../src/image/registry/known-blobs.js';

const file = () => join(mkdtempSync(join(tmpdir(), 'hubctl-known-')), 'state', 'known-blobs.json');
const d = (n: number) => `sha256:${String(n).repeat(64).slice(0, 64)}`;

describe('KnownBlobs', () => {
  it('remembers several repositories of several registries in one write, newest first', async () => {
    const path = file();
    const known = new KnownBlobs(path);
    await known.remember('a.example', 'src/app', [d(1)]);
    await known.rememberAll([
      { registry: 'a.example', repository: 'other/app', digests: [d(1), d(2)] },
      { registry: 'b.example', repository: 'dst/app', digests: [d(1)] },
    ]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      [`a.example ${d(1)}`]: ['other/app', 'src/app'],
      [`a.example ${d(2)}`]: ['other/app'],
      [`b.example ${d(1)}`]: ['dst/app'],
    });
    // A fresh reader (a later run) finds them.
    const later = new KnownBlobs(path);
    expect(await later.repositoryWith('a.example', d(1), 'other/app')).toBe('src/app');
    expect(await later.repositoryWith('b.example', d(1), 'x/y')).toBe('dst/app');
    expect(await later.repositoryWith('b.example', d(2), 'x/y')).toBeUndefined();
  });

  it('writes nothing when there is nothing to remember', async () => {
    const path = file();
    await new KnownBlobs(path).rememberAll([{ registry: 'a.example', repository: 'r', digests: [] }]);
    expect(() => readFileSync(path)).toThrow();
  });
});

describe('BatchedKnownBlobs', () => {
  it('hands everything remembered to the file in one write when flushed, and offers it meanwhile', async () => {
    const writes: KnownBlobsEntry[][] = [];
    const inner = new (class extends KnownBlobs {
      override async rememberAll(entries: readonly KnownBlobsEntry[]): Promise<void> {
        writes.push(entries.map((e) => ({ ...e, digests: [...e.digests] })));
        await super.rememberAll(entries);
      }
    })(file());
    const batched = new BatchedKnownBlobs(inner);
    await batched.remember('a.example', 'src/app', [d(1), d(2)]);
    await batched.remember('b.example', 'dst/app', [d(1)]);
    await batched.remember('b.example', 'dst/app', [d(2)]);
    expect(await batched.repositoryWith('b.example', d(2), 'x/y')).toBe('dst/app');
    expect(writes).toEqual([]);
    await batched.flush();
    expect(writes).toEqual([
      [
        { registry: 'a.example', repository: 'src/app', digests: [d(1), d(2)] },
        { registry: 'b.example', repository: 'dst/app', digests: [d(1), d(2)] },
      ],
    ]);
    expect(await inner.repositoryWith('b.example', d(1), 'x/y')).toBe('dst/app');
    // Flushed once: a second flush has nothing to write.
    await batched.flush();
    expect(writes).toHaveLength(2);
    expect(writes[1]).toEqual([]);
  });
});

describe('parseKnownBlobs (the state file, a hint that may have been edited by hand)', () => {
  const D = `sha256:${'a'.repeat(64)}`;
  it('keeps well-formed entries and drops the rest, whatever the file holds', () => {
    expect(parseKnownBlobs('null')).toEqual({});
    expect(parseKnownBlobs('[1,2]')).toEqual({});
    expect(parseKnownBlobs('not json')).toEqual({});
    expect(
      parseKnownBlobs(
        JSON.stringify({
          [`r.example ${D}`]: ['a/b', 7, null, 'c'],
          [`r.example sha256:${'b'.repeat(64)}`]: null,
          'no-digest-here': ['x'],
          __proto__: ['x'],
        }),
      ),
    ).toEqual({ [`r.example ${D}`]: ['a/b', 'c'] });
    const hostile = parseKnownBlobs(`{"__proto__": ["x"], "r ${D}": ["y"]}`);
    expect(Object.getPrototypeOf(hostile)).toBe(Object.prototype);
    expect(hostile).toEqual({ [`r ${D}`]: ['y'] });
  });

  it('never throws, and answers only arrays of non-empty strings (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        const map = parseKnownBlobs(text);
        for (const v of Object.values(map)) {
          expect(Array.isArray(v)).toBe(true);
          expect(v.length).toBeGreaterThan(0);
          expect(v.length).toBeLessThanOrEqual(4);
          for (const r of v) expect(typeof r === 'string' && r.length > 0).toBe(true);
        }
      }),
    );
  });

  it('a copy reads a state file holding null as no known blobs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'known-null-'));
    const path = join(dir, 'known-blobs.json');
    writeFileSync(path, 'null');
    const known = new KnownBlobs(path);
    expect(await known.repositoryWith('r.example', D, 'x')).toBeUndefined();
    await known.remember('r.example', 'a/b', [D]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ [`r.example ${D}`]: ['a/b'] });
  });
});
