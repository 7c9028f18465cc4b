// A reader for the plain subset of YAML that policy files are written in: block mappings with
// simple keys, block sequences, one-line flow sequences, one-line plain and quoted scalars, and
// comments. It exists for start-up time: loading the full `yaml` library costs `policy eval` about
// 25 ms, more than the rest of the command. Anything outside the subset (anchors, tags, block or
// multi-line scalars, flow mappings, numbers, several documents, tabs…) returns DECLINED and the
// caller hands the text to `yaml`. So a document is either read exactly as `yaml` reads it or not
// at all; test/policy/yaml-subset.test.ts holds the two equal on generated and mutated documents.

import { type KeyOffsets, noteKey } from './source-text.js';

export const DECLINED: unique symbol = Symbol('declined');

interface Line {
  indent: number;
  /** The line without its indentation and trailing spaces; never blank, never a lone comment. */
  text: string;
  /** Offset of `text` in the source (where a key on this line starts). */
  offset: number;
}

class Decline extends Error {}

/** Characters that cannot start a plain scalar (YAML 1.2 indicators), `-` included for safety. */
const INDICATORS = new Set('-?:,[]{}#&*!|>\'"%@`');
// Bytes outside printable one-line text, or that YAML treats specially: tab, CR, BOM, NEL, LS, PS.
const UNSUPPORTED_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
const KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +|$)/;
// The core schema's non-string plain scalars that this reader does not convert (numbers).
const NUMBER =
  /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

/**
 * The value of a one-document YAML text, or DECLINED when it leaves the subset. `offsets`, when
 * given, learns where each key of each mapping starts.
 */
export function readYamlSubset(source: string, offsets?: KeyOffsets): unknown {
  if (UNSUPPORTED_CHARS.test(source)) return DECLINED;
  const lines: Line[] = [];
  let start = 0;
  for (const raw of source.split('\n')) {
    // Only spaces count as YAML white space here (String.trim would also take no-break spaces).
    const indent = leadingSpaces(raw, 0);
    const text = trimTrailingSpaces(raw.slice(indent));
    const offset = start + indent;
    start += raw.length + 1;
    if (text === '' || text.startsWith('#')) continue;
    // Directives and document markers: leave documents to the full parser.
    if (indent === 0 && /^(?:---|\.\.\.|%)/.test(text)) return DECLINED;
    lines.push({ indent, text, offset });
  }
  if (lines.length === 0) return DECLINED;
  try {
    const reader = new Reader(lines, offsets);
    const value = reader.node(lines[0]?.indent ?? 0);
    if (!reader.done()) return DECLINED; // a line the structure above could not place
    return value;
  } catch (err) {
    // a stack overflow is nesting beyond any policy file: the full reader says so
    if (err instanceof Decline || err instanceof RangeError) return DECLINED;
    throw err;
  }
}

class Reader {
  private i = 0;
  constructor(
    private readonly lines: Line[],
    private readonly offsets: KeyOffsets | undefined,
  ) {}

  done(): boolean {
    return this.i === this.lines.length;
  }

  private peek(): Line | undefined {
    return this.lines[this.i];
  }

  /** The block node starting on the current line, which is indented at least `min`. */
  node(min: number): unknown {
    const line = this.peek();
    if (!line || line.indent < min) return null;
    if (isSequenceEntry(line.text)) return this.sequence(line.indent);
    if (KEY.test(line.text)) return this.mapping(line.indent);
    this.i++;
    return inlineValue(line.text);
  }

  private sequence(indent: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.peek(); line?.indent === indent && isSequenceEntry(line.text); line = this.peek()) {
      const rest = line.text.slice(leadingSpaces(line.text, 1));
      if (rest === '' || rest.startsWith('#')) {
        this.i++;
        items.push(this.node(indent + 1));
        continue;
      }
      // `- name: x` or `- - a`: the entry's node starts at the column after the dash.
      const skip = line.text.length - rest.length;
      this.lines[this.i] = { indent: indent + skip, text: rest, offset: line.offset + skip };
      items.push(this.node(indent + 1));
    }
    return items;
  }

  private mapping(indent: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (let line = this.peek(); line?.indent === indent; line = this.peek()) {
      const m = KEY.exec(line.text);
      if (!m) throw new Decline();
      const key = m[1] as string;
      if (key === '__proto__' || typeof plainValue(key) !== 'string' || Object.hasOwn(map, key)) {
        throw new Decline(); // odd or duplicate keys: the full parser reports or converts them
      }
      noteKey(this.offsets, map, key, line.offset);
      const rest = line.text.slice(m[0].length);
      this.i++;
      if (rest !== '' && !rest.startsWith('#')) {
        map[key] = inlineValue(rest);
        continue;
      }
      const next = this.peek();
      // A sequence may sit at the key's own indentation (`rules:` then `- name: …`).
      if (next && next.indent === indent && isSequenceEntry(next.text)) map[key] = this.sequence(indent);
      else map[key] = this.node(indent + 1);
    }
    return map;
  }
}

function leadingSpaces(s: string, from: number): number {
  let j = from;
  while (s[j] === ' ') j++;
  return j;
}

function trimTrailingSpaces(s: string): string {
  let end = s.length;
  while (s[end - 1] === ' ') end--;
  return s.slice(0, end);
}

function isSequenceEntry(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** A value written on the rest of a line: a flow sequence, a quoted or a plain scalar. */
function inlineValue(text: string): unknown {
  const first = text[0];
  if (first === '[') return flowSequence(text);
  if (first === '"' || first === "'") {
    const [value, end] = quoted(text, 0);
    expectLineEnd(text, end);
    return value;
  }
  const comment = text.indexOf(' #');
  const plain = trimTrailingSpaces(comment < 0 ? text : text.slice(0, comment));
  // `a: b` on one line is a nested mapping, `a:` at the end too: not in the subset.
  if (plain.includes(': ') || plain.endsWith(':')) throw new Decline();
  return plainValue(plain);
}

/** `[a, "b", 'c']` on one line, scalars only. */
function flowSequence(text: string): unknown[] {
  const items: unknown[] = [];
  let j = 1;
  for (;;) {
    while (text[j] === ' ') j++;
    if (text[j] === ']') break;
    let item: unknown;
    const c = text[j];
    if (c === '"' || c === "'") {
      [item, j] = quoted(text, j);
    } else {
      const start = j;
      while (j < text.length && text[j] !== ',' && text[j] !== ']') {
        if ('[]{}#'.includes(text[j] as string)) throw new Decline();
        j++;
      }
      const plain = trimTrailingSpaces(text.slice(start, j));
      // A colon that ends a word inside a flow sequence makes a pair: not in the subset.
      if (plain === '' || /:(?: |$)/.test(plain)) throw new Decline();
      item = plainValue(plain);
    }
    items.push(item);
    while (text[j] === ' ') j++;
    if (text[j] === ',') {
      j++;
      continue;
    }
    if (text[j] === ']') break;
    throw new Decline(); // no closing bracket on this line, or text between items
  }
  expectLineEnd(text, j + 1);
  return items;
}

/** A quoted scalar starting at `text[at]`: its value and the index just past the closing quote. */
function quoted(text: string, at: number): [string, number] {
  const q = text[at];
  let value = '';
  for (let j = at + 1; j < text.length; j++) {
    const c = text[j];
    if (q === '"' && c === '\\') throw new Decline(); // escapes: left to the full parser
    if (c !== q) {
      value += c;
      continue;
    }
    if (q === "'" && text[j + 1] === "'") {
      value += "'";
      j++;
      continue;
    }
    return [value, j + 1];
  }
  throw new Decline(); // continues on the next line
}

/** After a complete value only spaces and a comment may follow. */
function expectLineEnd(text: string, at: number): void {
  const rest = text.slice(at);
  if (rest !== '' && !/^ +#/.test(rest)) throw new Decline();
}

/** A plain scalar as the core schema resolves it; numbers are left to the full parser. */
function plainValue(s: string): unknown {
  if (INDICATORS.has(s[0] as string)) throw new Decline();
  if (s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
  if (NUMBER.test(s)) throw new Decline();
  return s;
}
