// Cedar text: where things are in it. Cedar reports source locations as UTF-8 byte offsets; hubctl
// says lines and columns. Pure: no IO.

import { Ascii } from '../ascii.js';

export interface TextPosition {
  /** 1-based line. */
  line: number;
  /** 1-based column, in characters. */
  column: number;
  /** The offset in characters (UTF-16 code units). */
  offset: number;
}

/** The position of UTF-8 byte offset `byteOffset` of `text` (clamped to its end). */
export function positionOfByte(text: string, byteOffset: number): TextPosition {
  let bytes = 0;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  for (; i < text.length && bytes < byteOffset; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (c === Ascii.LineFeed) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: i - lineStart + 1, offset: i };
}

/** The 1-based line of character offset `offset` of `text`. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === Ascii.LineFeed) line++;
  return line;
}

/** The character offset of UTF-8 byte offset `byteOffset` of `text`. */
export function charOffsetOfByte(text: string, byteOffset: number): number {
  return positionOfByte(text, byteOffset).offset;
}

/**
 * The line of `file` on which the first line of `text` stands, when the text's lines stand there one
 * after the other (a YAML block scalar, a raw .cedar file); undefined when they do not (a JSON
 * string, a YAML flow scalar): messages then give the line within the Cedar text.
 */
export function firstLineIn(file: string, text: string): number | undefined {
  const want = text.split('\n').map((l) => l.trim());
  let first = want.findIndex((l) => l !== '');
  if (first < 0) first = 0;
  const lines = file.split('\n').map((l) => l.trim());
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== want[first]) continue;
    let ok = true;
    for (let k = first + 1, j = i + 1; k < want.length && ok; k++, j++) {
      // a block scalar keeps inner lines as they are; trailing blank lines may be clipped
      if (want[k] === '' && (j >= lines.length || lines[j] === '')) continue;
      if (lines[j] !== want[k]) ok = false;
    }
    if (ok) return i + 1 - first;
  }
  return undefined;
}
