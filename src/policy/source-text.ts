// Where things are in an authored policy file: the offsets of keys, as the readers (strict JSON,
// the YAML subset, the full YAML walk) record them, turned into `file:line:col` only when there is
// something to say. And the file's bytes as text, refusing what is not UTF-8. Pure: no IO.
import { ValidationError } from '../errors.js';

/** The offset in the text of each key of each object a reader made (errors point at the key). */
export type KeyOffsets = WeakMap<object, Map<string, number>>;

/** Records that `key` of `obj` starts at `offset`. */
export function noteKey(offsets: KeyOffsets | undefined, obj: object, key: string, offset: number): void {
  if (!offsets) return;
  let m = offsets.get(obj);
  if (!m) {
    m = new Map();
    offsets.set(obj, m);
  }
  m.set(key, offset);
}

/** Sets a property as an own data property, `__proto__` included (never the prototype). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** 1-based line and column (in characters) of an offset. */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: end - start + 1 };
}

/** `file:line:col` of an offset, or the file alone when the offset is not known. */
export function placeOf(source: string, text: string, offset: number | undefined): string {
  if (offset === undefined) return source;
  const { line, col } = lineCol(text, offset);
  return `${source}:${line}:${col}`;
}

/** Past this, a message about a file is cut: a name or value from the file can be megabytes. */
const MAX_MESSAGE = 500;

/**
 * A message with the words from a file cut short: a run of 80 characters or more without a space
 * keeps its first 60, and the whole keeps its first 500.
 */
export function bounded(message: string): string {
  const cut = message.replace(/[^\s]{80,}/g, (run) => `${run.slice(0, 60)}…`);
  return cut.length > MAX_MESSAGE ? `${cut.slice(0, MAX_MESSAGE - 1)}…` : cut;
}

/** Throws the one-sentence error of an authored file, placed at `offset`. */
export function failAt(source: string, text: string, offset: number | undefined, message: string): never {
  throw new ValidationError(bounded(`${placeOf(source, text, offset)}: ${message}`));
}

/**
 * A policy file's bytes as text. Invalid UTF-8 is refused with the line and column of the first
 * bad byte (decoding it leniently would turn it into U+FFFD and read on). A UTF-8 byte order mark is
 * dropped.
 */
export function decodePolicyText(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // The valid prefix encodes back to the same bytes: the first difference is the first bad byte.
    const again = new TextEncoder().encode(new TextDecoder('utf-8').decode(bytes));
    let i = 0;
    while (i < bytes.length && bytes[i] === again[i]) i++;
    let line = 1;
    let start = 0;
    for (let j = 0; j < i; j++) {
      if (bytes[j] === 0x0a) {
        line++;
        start = j + 1;
      }
    }
    const byte = (bytes[i] ?? 0).toString(16).padStart(2, '0');
    throw new ValidationError(
      `${source}:${line}: not valid UTF-8 (byte 0x${byte}, byte ${i - start + 1} of the line); did you mean to save the file as UTF-8?`,
    );
  }
}
