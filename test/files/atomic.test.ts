// The one atomic write: the whole new content or the old one, never a half; nothing left beside it;
// a directory or a missing folder where the file goes is one sentence naming the path.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/files/atomic.js';
import { FileSystemError } from '../../src/files/safe-open.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hubctl-atomic-'));

describe('writeFileAtomic', () => {
  it('replaces a file with the whole new content (text or bytes) and leaves no temporary file', async () => {
    const d = dir();
    const file = join(d, 'index.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, '{"new":true}');
    expect(readFileSync(file, 'utf8')).toBe('{"new":true}');
    await writeFileAtomic(file, Uint8Array.from([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(readdirSync(d)).toEqual(['index.json']);
  });

  it('a directory where the file goes: invalid input (exit 2), nothing left beside it', async () => {
    const d = dir();
    mkdirSync(join(d, 'index.json', 'x'), { recursive: true });
    const err = await writeFileAtomic(join(d, 'index.json'), 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe(`${join(d, 'index.json')} is a directory, not a file`);
    expect(readdirSync(d)).toEqual(['index.json']);
  });

  it('a folder that is not there: one sentence naming the temporary file (exit 1)', async () => {
    const d = dir();
    const err = await writeFileAtomic(join(d, 'no', 'f.json'), 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileSystemError);
    expect((err as Error).message).toMatch(/^cannot write .*\/no\/f\.json\.tmp-[0-9a-f]{12}: /);
  });
});

describe('writeFileAtomicSync', () => {
  it('gives the file exactly the mode asked for', () => {
    const file = join(dir(), 'config.json');
    writeFileAtomicSync(file, '{}', 0o600);
    expect(readFileSync(file, 'utf8')).toBe('{}');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('writeFileAtomicSync: what a killed run left', () => {
  it("removes the file's own leftover temporaries (a secret a killed write left), and nothing else", () => {
    const d = dir();
    const file = join(d, 'credentials.json');
    // A run killed between create and rename left its temporary, with the secret in it.
    writeFileSync(`${file}.tmp-0123456789ab`, '{"hub":{"default":{"secret":"old-secret"}}}');
    // Not this file's temporaries, or not hubctl's form: kept.
    const others = [
      'config.json.tmp-0123456789ab',
      'credentials.json.tmp-mine',
      'credentials.json.tmp-0123456789abc',
    ];
    for (const name of others) writeFileSync(join(d, name), 'x');
    writeFileAtomicSync(file, '{"hub":{}}', 0o600);
    expect(readFileSync(file, 'utf8')).toBe('{"hub":{}}');
    expect(readdirSync(d).sort()).toEqual(['credentials.json', ...others].sort());
  });
});
