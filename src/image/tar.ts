// A minimal tar (ustar + pax path records) reader and writer for docker-archive files. The reader
// only indexes headers (positional reads, data skipped), so entries are streamed straight from
// the file; the writer streams each entry's data, never holding it whole in memory.

import { createReadStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ValidationError } from '../errors.js';
import { openInput } from '../files/safe-open.js';
import { READ_CHUNK } from './io-sizes.js';

const BLOCK = 512;

/**
 * A pax extended header or GNU long name: real ones are a few hundred bytes (a path, a link
 * target, times); past this an archive is refused before the record is read.
 */
export const MAX_PAX_BYTES = 1024 * 1024;
/** Entries indexed in an archive: a `docker save` of many images holds a few thousand. */
export const MAX_TAR_ENTRIES = 250_000;

/** A pax or long-name record over its cap, refused before it is read. */
export function checkPaxSize(size: number, where: string): void {
  if (size > MAX_PAX_BYTES)
    throw new ValidationError(
      `${where}: a tar extended header declares ${size} bytes, over the ${MAX_PAX_BYTES / 1024} KiB hubctl reads`,
    );
}

export interface TarEntry {
  name: string;
  size: number;
  /** Offset of the data in the file. */
  offset: number;
  type: string;
}

export function readString(buf: Buffer, off: number, len: number): string {
  const slice = buf.subarray(off, off + len);
  const nul = slice.indexOf(0);
  return slice.subarray(0, nul < 0 ? len : nul).toString('utf8');
}

export function readOctal(buf: Buffer, off: number, len: number): number {
  // Base-256 (GNU) for sizes over 8 GiB.
  if ((buf[off]! & 0x80) !== 0) {
    let n = 0;
    for (let i = off + 1; i < off + len; i++) n = n * 256 + buf[i]!;
    return n;
  }
  const s = readString(buf, off, len).trim();
  return s === '' ? 0 : Number.parseInt(s, 8);
}

export function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    if (space < 0) break;
    const len = Number(data.subarray(i, space).toString());
    if (!Number.isSafeInteger(len) || len <= space - i || i + len > data.length) break;
    const record = data.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    i += len;
  }
  return out;
}

/** Lists the entries of a tar file by reading its headers only. */
export async function indexTar(path: string): Promise<Map<string, TarEntry>> {
  // A regular file only: a FIFO or a device (/dev/zero) would block or never end.
  const fh = await openInput(path, 'archive');
  const entries = new Map<string, TarEntry>();
  let count = 0;
  try {
    const { size: fileSize } = await fh.stat();
    const header = Buffer.alloc(BLOCK);
    let pos = 0;
    let longName: string | undefined;
    while (pos + BLOCK <= fileSize) {
      const { bytesRead } = await fh.read(header, 0, BLOCK, pos);
      if (bytesRead < BLOCK) break;
      if (header.every((b) => b === 0)) break;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
      if (sum !== readOctal(header, 148, 8))
        throw new ValidationError(`${path} is not a tar archive (bad header checksum)`);
      const size = readOctal(header, 124, 12);
      const type = String.fromCharCode(header[156] || 0x30);
      const dataOffset = pos + BLOCK;
      pos = dataOffset + Math.ceil(size / BLOCK) * BLOCK;
      if (!Number.isSafeInteger(size) || size < 0)
        throw new ValidationError(
          `${path} is not a tar archive (bad size field at byte ${dataOffset - BLOCK})`,
        );
      if (type === 'x' || type === 'L') checkPaxSize(size, path);
      if (dataOffset + size > fileSize)
        throw new ValidationError(
          `${path} is truncated: an entry of ${size} bytes at byte ${dataOffset} ends past the file's ${fileSize} bytes`,
        );
      if (++count > MAX_TAR_ENTRIES)
        throw new ValidationError(
          `${path} holds more than ${MAX_TAR_ENTRIES} entries, more than hubctl reads`,
        );
      if (type === 'x' || type === 'L') {
        const data = Buffer.alloc(size);
        await fh.read(data, 0, size, dataOffset);
        longName = type === 'L' ? readString(data, 0, size) : (parsePax(data).path ?? longName);
        continue;
      }
      if (type === 'g') continue;
      let name = readString(header, 0, 100);
      const magic = readString(header, 257, 6);
      const prefix = magic.startsWith('ustar') ? readString(header, 345, 155) : '';
      if (prefix) name = `${prefix}/${name}`;
      if (longName !== undefined) {
        name = longName;
        longName = undefined;
      }
      name = name.replace(/^\.\//, '');
      if (type === '0' || type === '\0' || type === '7')
        entries.set(name, { name, size, offset: dataOffset, type: '0' });
    }
  } finally {
    await fh.close();
  }
  return entries;
}

export function openTarEntry(path: string, entry: TarEntry, start = 0, end = entry.size): Readable {
  const stop = Math.min(end, entry.size);
  if (stop <= start) return Readable.from([]);
  return createReadStream(path, {
    start: entry.offset + start,
    end: entry.offset + stop - 1,
    highWaterMark: READ_CHUNK,
  });
}

export async function readTarEntry(path: string, entry: TarEntry, limit = 64 * 1024 * 1024): Promise<Buffer> {
  if (entry.size > limit)
    throw new ValidationError(`${entry.name} in ${path} is too large (${entry.size} bytes)`);
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(entry.size);
    await fh.read(buf, 0, entry.size, entry.offset);
    return buf;
  } finally {
    await fh.close();
  }
}

function octal(n: number, len: number): string {
  return `${n.toString(8).padStart(len - 1, '0')}\0`;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const base = Buffer.byteLength(body);
  let len = base + String(base).length;
  if (String(len).length > String(base).length) len = base + String(len).length;
  return `${len}${body}`;
}

/** A 512-byte ustar header (pax record first when the name is longer than 100 bytes). */
export function tarHeader(name: string, size: number, mtime = 0, type = '0'): Buffer {
  if (Buffer.byteLength(name) > 100) {
    const pax = Buffer.from(paxRecord('path', name));
    const paxHeader = tarHeader(`PaxHeader/${name.slice(-80)}`.slice(0, 100), pax.length, mtime, 'x');
    return Buffer.concat([
      paxHeader,
      pax,
      Buffer.alloc(padding(pax.length)),
      tarHeader(name.slice(-100), size, mtime, type),
    ]);
  }
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8, 'ascii');
  h.write(octal(0, 8), 108, 8, 'ascii');
  h.write(octal(0, 8), 116, 8, 'ascii');
  if (size >= 8 ** 11) {
    // Base-256 for entries of 8 GiB and more.
    h[124] = 0x80;
    let n = size;
    for (let i = 135; i > 124; i--) {
      h[i] = n % 256;
      n = Math.floor(n / 256);
    }
  } else {
    h.write(octal(size, 12), 124, 12, 'ascii');
  }
  h.write(octal(mtime, 12), 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii');
  h.write(type, 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

export function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/** Writes tar entries to a file stream, with backpressure. */
export class TarWriter {
  constructor(private readonly out: WriteStream) {}

  private write(chunk: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      const ok = this.out.write(chunk, (err) => {
        if (err) reject(err);
      });
      if (ok) resolve();
      else {
        const onError = (err: Error) => reject(err);
        this.out.once('error', onError);
        this.out.once('drain', () => {
          this.out.off('error', onError);
          resolve();
        });
      }
    });
  }

  async addBuffer(name: string, data: Buffer): Promise<void> {
    await this.write(tarHeader(name, data.length));
    await this.write(data);
    await this.write(Buffer.alloc(padding(data.length)));
  }

  async addStream(name: string, size: number, data: AsyncIterable<Buffer>): Promise<void> {
    await this.write(tarHeader(name, size));
    let n = 0;
    for await (const chunk of data) {
      n += chunk.length;
      if (n > size) throw new ValidationError(`${name}: more bytes than the ${size} announced`);
      await this.write(chunk);
    }
    if (n !== size) throw new ValidationError(`${name}: ${n} bytes instead of the ${size} announced`);
    await this.write(Buffer.alloc(padding(size)));
  }

  async addDirectory(name: string): Promise<void> {
    await this.write(tarHeader(name.endsWith('/') ? name : `${name}/`, 0, 0, '5'));
  }

  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }
}
