// The sandbox daemon's local audit files (audit-and-mcp.md §2): `audit-<utc>-<uuid>-<seq>.jsonl` in
// the platform's auditkit directory. Records being written live in `.tmp` files renamed when
// complete: only `.jsonl` is read. Each record (flat, or the API's nested shape) is read by
// record.ts and kept when it matches the query; files are read newest name first, in bounded memory.
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { homedir, platform } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { MAX_LINE_BYTES, readNdjson } from './ndjson.js';
import { type AuditQuery, hasConditions, recordMatches } from './query.js';
import { readAuditRecord } from './record.js';

/** A directory holds a few thousand files at most; more is not an auditkit directory. */
const MAX_FILES = 100_000;

/** The platform's auditkit directory. */
export function localAuditDir(env: Record<string, string | undefined>, os: string = platform()): string {
  const home = env.HOME || env.USERPROFILE || homedir();
  if (os === 'darwin') return join(home, 'Library/Logs/com.docker.sandboxes/sandboxes/auditkit');
  if (os === 'win32') {
    const local = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    return join(local, 'DockerSandboxes', 'sandboxes', 'logs', 'auditkit');
  }
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'sandboxes', 'sandboxes', 'auditkit');
}

/** The `.jsonl` files of the directory, newest name first (names start with a UTC timestamp). */
export async function localAuditFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `there is no local audit directory at ${dir}`
        : `cannot read the local audit directory ${dir}: ${(err as Error).message}`,
      code === 'ENOENT'
        ? {
            hint: 'The sandbox daemon writes it when an organization policy is enforced; pass --local DIR to read another.',
          }
        : {},
    );
  }
  const files = names.filter((n) => n.endsWith('.jsonl'));
  if (files.length > MAX_FILES) throw new UsageError(`${dir} holds more than ${MAX_FILES} .jsonl files`);
  return files
    .sort()
    .reverse()
    .map((n) => join(dir, n));
}

/** Matching records of NDJSON files (or `-`, given as a stream), as the objects read. */
export async function* readFileBatches(
  files: { name: string; open: () => AsyncIterable<Buffer | string> }[],
  query: AuditQuery,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<Record<string, unknown>[]> {
  const check = hasConditions(query);
  for (const file of files) {
    for await (const batch of readNdjson(file.open(), file.name, maxBytes)) {
      if (!check) {
        yield batch;
        continue;
      }
      const kept: Record<string, unknown>[] = [];
      for (const value of batch) {
        const record = readAuditRecord(value);
        if ('invalid' in record) continue;
        if (recordMatches(record, query)) kept.push(value);
      }
      if (kept.length > 0) yield kept;
    }
  }
}

export async function* readLocalBatches(
  dir: string,
  query: AuditQuery,
): AsyncGenerator<Record<string, unknown>[]> {
  const files = await localAuditFiles(dir);
  yield* readFileBatches(
    files.map((path) => ({ name: path, open: () => openFile(path) })),
    query,
  );
}

/** A file's chunks (`chunkBytes` at most each). */
export function openFile(path: string, chunkBytes = 256 * 1024): AsyncIterable<Buffer> {
  const stream = createReadStream(path, { highWaterMark: chunkBytes });
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const chunk of stream) yield chunk as Buffer;
      } catch (err) {
        throw new UsageError(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
      }
    },
  };
}
