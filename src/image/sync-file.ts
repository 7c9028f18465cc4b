// The sync file of `image sync -f FILE`, read strictly: a reviewed file must mean what it says, so
// an unknown key (with the nearest known one suggested), a duplicate key, a value of the wrong type
// or a bad pattern, range, platform or repository is one sentence with the file and line, exit 2.
// Read with the `yaml` package's document API (its nodes carry their offsets), not through the
// policy readers, which serve another format.
//
//   sync:
//     - source: registry.example.com/base/node
//       destination: mirror.corp.example:5000/base/node
//       tags: {include: ['^\d+\.\d+\.\d+$'], exclude: ['-rc'], semver: '>=20.0.0', latest: 3}
//       platforms: [linux/amd64, linux/arm64]     # or `all` (the default)
//       referrers: true

import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from 'yaml';
import { ValidationError } from '../errors.js';
import { parseRepository, type RepositoryName } from '../ref/reference.js';
import { type PlatformSpec, parsePlatform } from './platform.js';
import { TagFilter, type TagFilterSpec } from './tag-filter.js';

export interface SyncMapping {
  /** The line of the mapping's entry, for messages. */
  line: number;
  source: RepositoryName;
  destination: RepositoryName;
  tags: TagFilterSpec;
  /** `all`, or the platforms kept. */
  platforms: 'all' | PlatformSpec[];
  referrers: boolean;
}

/** A sync file is small: 1 MB and 1,000 mappings at most. */
export const MAX_SYNC_FILE_BYTES = 1024 * 1024;
export const MAX_MAPPINGS = 1000;

const TOP_KEYS = ['sync'];
const MAPPING_KEYS = ['source', 'destination', 'tags', 'platforms', 'referrers'];
const TAG_KEYS = ['include', 'exclude', 'semver', 'latest'];

/** The known key nearest to `key` (edit distance at most 2, or a prefix), for "did you mean". */
export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = k.startsWith(key) || key.startsWith(k) ? 1 : distance(key.toLowerCase(), k);
    if (d <= 2 && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Parses a sync file's text; `file` names it in messages. */
export function parseSyncFile(text: string, file: string): SyncMapping[] {
  if (Buffer.byteLength(text) > MAX_SYNC_FILE_BYTES)
    throw new ValidationError(`${file} is larger than ${MAX_SYNC_FILE_BYTES} bytes`);
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const lineOf = (offset: number | undefined) => (offset === undefined ? 1 : lines.linePos(offset).line);
  const fail = (offset: number | undefined, message: string): never => {
    throw new ValidationError(`${file}:${lineOf(offset)}: ${message}`);
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const key = /^[^:\n]{1,40}/.exec(text.slice(firstError.pos[0]))?.[0]?.trim();
    const what =
      firstError.code === 'DUPLICATE_KEY'
        ? `the key "${key}" is given twice`
        : firstError.message.split(' at line')[0];
    fail(firstError.pos[0], what ?? 'not valid YAML');
  }
  const at = (n: Node | null | undefined) => n?.range?.[0];
  const keysOf = (map: YAMLMap, known: readonly string[], where: string): Map<string, Node | null> => {
    const out = new Map<string, Node | null>();
    for (const pair of map.items) {
      const k = pair.key as Node | null;
      if (!isScalar(k) || typeof k.value !== 'string') fail(at(k), `${where}: keys must be plain words`);
      const key = (k as { value: string }).value;
      if (!known.includes(key)) {
        const near = nearest(key, known);
        fail(
          at(k),
          `unknown key "${key.slice(0, 40)}" in ${where}${near ? ` (did you mean "${near}"?)` : ` (known: ${known.join(', ')})`}`,
        );
      }
      out.set(key, pair.value as Node | null);
    }
    return out;
  };
  const str = (n: Node | null | undefined, what: string): string => {
    if (!isScalar(n) || typeof n.value !== 'string' || n.value === '')
      fail(at(n), `${what} must be a non-empty string`);
    return (n as { value: string }).value;
  };
  const strList = (n: Node | null | undefined, what: string): string[] => {
    if (isScalar(n)) return [str(n, what)];
    if (!isSeq(n)) return fail(at(n), `${what} must be a string or a list of strings`);
    return n.items.map((i) => str(i as Node, `each of ${what}`));
  };
  const withLine = <T>(n: Node | null | undefined, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      if (err instanceof ValidationError && err.message.startsWith(`${file}:`)) throw err;
      return fail(at(n), err instanceof Error ? err.message : String(err));
    }
  };

  const root = doc.contents;
  if (!isMap(root)) return fail(at(root), 'the file must be a mapping with a "sync:" list');
  const top = keysOf(root, TOP_KEYS, 'the file');
  const list = top.get('sync');
  if (!isSeq(list))
    return fail(at(list ?? root), '"sync" must be a list of mappings (source, destination, …)');
  if (list.items.length === 0) fail(at(list), '"sync" lists nothing');
  if (list.items.length > MAX_MAPPINGS) fail(at(list), `"sync" lists more than ${MAX_MAPPINGS} mappings`);
  return list.items.map((item, i) => {
    const node = item as Node;
    const where = `sync entry ${i + 1}`;
    if (!isMap(node)) return fail(at(node), `${where} must be a mapping (source, destination, …)`);
    const keys = keysOf(node, MAPPING_KEYS, where);
    for (const required of ['source', 'destination'])
      if (!keys.has(required)) fail(at(node), `${where} has no "${required}"`);
    const repo = (key: string): RepositoryName => {
      const n = keys.get(key);
      const value = str(n, `${where}: ${key}`);
      return withLine(n, () => parseRepository(value));
    };
    const tags: TagFilterSpec = {};
    const tagsNode = keys.get('tags');
    if (tagsNode !== undefined) {
      if (!isMap(tagsNode))
        return fail(at(tagsNode), `${where}: tags must be a mapping (include, exclude, semver, latest)`);
      const t = keysOf(tagsNode, TAG_KEYS, `${where} tags`);
      if (t.has('include')) tags.include = strList(t.get('include'), 'tags.include');
      if (t.has('exclude')) tags.exclude = strList(t.get('exclude'), 'tags.exclude');
      if (t.has('semver')) tags.semver = str(t.get('semver'), 'tags.semver');
      if (t.has('latest')) {
        const n = t.get('latest');
        if (!isScalar(n) || typeof n.value !== 'number' || !Number.isSafeInteger(n.value) || n.value < 1)
          fail(at(n), 'tags.latest must be a whole number of 1 or more');
        tags.latest = (n as { value: number }).value;
      }
      withLine(tagsNode, () => new TagFilter(tags, 'tags.'));
    }
    let platforms: SyncMapping['platforms'] = 'all';
    const p = keys.get('platforms');
    if (p !== undefined && !(isScalar(p) && p.value === 'all')) {
      const names = strList(p, 'platforms');
      platforms = withLine(p, () => names.map((n) => parsePlatform(n)));
    }
    let referrers = false;
    const r = keys.get('referrers');
    if (r !== undefined) {
      if (!isScalar(r) || typeof r.value !== 'boolean') fail(at(r), 'referrers must be true or false');
      referrers = (r as { value: boolean }).value;
    }
    return {
      line: lineOf(at(node)),
      source: repo('source'),
      destination: repo('destination'),
      tags,
      platforms,
      referrers,
    };
  });
}

/** Reads and parses a sync file (at most MAX_SYNC_FILE_BYTES; `-` is not accepted: it is reviewed). */
export async function readSyncFile(path: string): Promise<SyncMapping[]> {
  const { open } = await import('node:fs/promises');
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const st = await handle.stat();
      if (!st.isFile()) throw new ValidationError(`${path} is not a regular file`);
      if (st.size > MAX_SYNC_FILE_BYTES)
        throw new ValidationError(`${path} is larger than ${MAX_SYNC_FILE_BYTES} bytes`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ValidationError(
      `cannot read the sync file ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code ?? err)}`,
    );
  }
  return parseSyncFile(text, path);
}
