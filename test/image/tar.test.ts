import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { indexTar, openTarEntry, readTarEntry, TarWriter, tarHeader } from '../../src/image/tar.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'hubctl-tar-'));
const text = async (r: Readable) => Buffer.concat(await r.toArray()).toString();

describe('tar', () => {
  it('writes entries that the system tar lists and extracts, and reads them back by offset', async () => {
    const dir = tmp();
    const file = join(dir, 'a.tar');
    const long = `blobs/sha256/${'x'.repeat(120)}`;
    const w = new TarWriter(createWriteStream(file));
    await w.addBuffer('manifest.json', Buffer.from('[{"Config":"c"}]'));
    await w.addDirectory('blobs');
    await w.addStream('blobs/big', 3000, Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(2000, 2)]));
    await w.addBuffer(long, Buffer.from('long name'));
    await w.addBuffer('empty', Buffer.alloc(0));
    await w.finish();

    const listed = execFileSync('tar', ['-tf', file]).toString().trim().split('\n');
    expect(listed).toEqual(['manifest.json', 'blobs/', 'blobs/big', long, 'empty']);
    const out = join(dir, 'x');
    mkdirSync(out);
    execFileSync('tar', ['-xf', file, '-C', out]);

    const entries = await indexTar(file);
    expect([...entries.keys()]).toEqual(['manifest.json', 'blobs/big', long, 'empty']);
    expect((await readTarEntry(file, entries.get(long)!)).toString()).toBe('long name');
    const big = entries.get('blobs/big')!;
    expect(big.size).toBe(3000);
    const tail = Buffer.concat(await openTarEntry(file, big, 999, 1001).toArray());
    expect([...tail]).toEqual([1, 2]);
    expect(await text(openTarEntry(file, entries.get('empty')!))).toBe('');
  });

  it('reads archives written by GNU tar, long names included', async () => {
    const dir = tmp();
    const src = join(dir, 'src');
    const deep = join(src, 'd'.repeat(60), 'e'.repeat(60));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'file.txt'), 'hello');
    writeFileSync(join(src, 'top.json'), '{}');
    const file = join(dir, 'gnu.tar');
    execFileSync('tar', ['--format=gnu', '-cf', file, '-C', src, '.']);
    const entries = await indexTar(file);
    const name = `${'d'.repeat(60)}/${'e'.repeat(60)}/file.txt`;
    expect(entries.has(name)).toBe(true);
    expect(entries.has('top.json')).toBe(true);
    expect((await readTarEntry(file, entries.get(name)!)).toString()).toBe('hello');
  });

  it('refuses a file that is not a tar', async () => {
    const file = join(tmp(), 'no.tar');
    writeFileSync(file, Buffer.alloc(1024, 7));
    await expect(indexTar(file)).rejects.toThrow(/not a tar archive/);
  });

  it('writes sizes of 8 GiB and more in base-256', () => {
    const h = tarHeader('big', 9 * 1024 ** 3);
    expect(h[124]).toBe(0x80);
  });
});
