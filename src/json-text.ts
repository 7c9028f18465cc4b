// JSON text that is safe on a terminal. Pure (no imports): the output layer writes every JSON
// document through it, and so does `policy eval --batch`, whose lines src/policy renders itself.
//
// JSON.stringify escapes C0 by itself; DEL, C1 and the bidi characters are valid raw in JSON
// strings, and only ever occur inside strings, so writing them as \uXXXX keeps the same document.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with no raw control or bidi character, for stdout, --json errors and --batch lines. */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    UNSAFE_IN_JSON,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The same for JSON text already written (NDJSON lines): raw DEL, C1 and bidi characters as \uXXXX. */
export function escapeJsonText(json: string): string {
  UNSAFE_IN_JSON.lastIndex = 0;
  return UNSAFE_IN_JSON.test(json)
    ? json.replace(UNSAFE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}

/**
 * The same for UTF-8 bytes of JSON text: unchanged (the same buffer) when no byte can begin such a
 * character (DEL is 7f, C1 and U+061C begin with c2 or d8, the others with e2), which is the common case.
 */
export function escapeJsonBytes(bytes: Buffer): Buffer {
  if (
    bytes.indexOf(0x7f) === -1 &&
    bytes.indexOf(0xc2) === -1 &&
    bytes.indexOf(0xd8) === -1 &&
    bytes.indexOf(0xe2) === -1
  )
    return bytes;
  const text = bytes.toString('utf8');
  const escaped = escapeJsonText(text);
  return escaped === text ? bytes : Buffer.from(escaped);
}
