// A JSON reader for authored policy files. It reads what JSON.parse reads, to the same value, but a
// key given twice in one object is an error (JSON.parse keeps the last silently: a second "rules"
// would drop the first list's denies), nesting is bounded, and it records where each key starts so
// that later errors can name the line. Pure: no IO.
import { type KeyOffsets, lineCol, noteKey, setOwn } from './source-text.js';

/** Nesting deeper than this is refused: a policy file needs six levels. */
export const MAX_JSON_DEPTH = 64;

/** A problem in the text, at an offset; the caller names the file and the line. */
export class JsonProblem extends Error {
  constructor(
    readonly offset: number,
    message: string,
    /** True for text that is not JSON at all (a YAML reader may try it); false for JSON that breaks a rule. */
    readonly syntax: boolean,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The value of a JSON text; throws JsonProblem. */
export function readJsonStrict(text: string, offsets?: KeyOffsets): unknown {
  let i = 0;
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const syntax = (what: string): never => {
    const found = i >= text.length ? 'the end of the text' : JSON.stringify(text[i]);
    throw new JsonProblem(i, `not valid JSON: expected ${what}, found ${found}`, true);
  };
  const string = (): string => {
    const start = i;
    let escapes = false;
    for (i = start + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) syntax('a string without control characters (escape them)');
      if (c === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) syntax('an escape such as \\n, \\" or \\u0041');
        i = ESCAPE.lastIndex - 1;
        escapes = true;
      }
    }
    if (i >= text.length) syntax('the closing quote of a string');
    i++;
    const raw = text.slice(start, i);
    return escapes ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_JSON_DEPTH)
      throw new JsonProblem(i, `nested deeper than ${MAX_JSON_DEPTH} levels`, false);
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      const seen = new Map<string, number>();
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') syntax('a key in double quotes');
        const at = i;
        const key = string();
        const first = seen.get(key);
        if (first !== undefined) {
          throw new JsonProblem(
            at,
            `key ${JSON.stringify(key)} is given twice in one object (first at line ${lineCol(text, first).line}); did you mean to merge the two into one?`,
            false,
          );
        }
        seen.set(key, at);
        noteKey(offsets, obj, key, at);
        ws();
        if (text[i] !== ':') syntax('":"');
        i++;
        setOwn(obj, key, value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        syntax('"," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const list: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return list;
      }
      for (;;) {
        list.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return list;
        }
        syntax('"," or "]"');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m && m[0] !== '-') {
      i += m[0].length;
      return Number(m[0]);
    }
    return syntax('a value');
  };
  // a byte order mark is not JSON, but editors write it
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  const v = value(0);
  ws();
  if (i < text.length) syntax('the end of the text');
  return v;
}
