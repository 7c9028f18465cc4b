// Filesystem resources of rules (absolute or `~` paths with `*` within a segment and `**` across
// segments) and paths of requests, normalized (decisions §4). Globs become segment matchers
// (path-match.ts): no regular expression is built from user input. Pure: no IO.

import { ValidationError } from '../errors.js';
import { Ascii } from './ascii.js';

export type PathSegment =
  | { readonly kind: 'lit'; readonly text: string }
  /** `*` within one segment: `parts` are the literal pieces between the stars (≥ 2 of them). */
  | { readonly kind: 'glob'; readonly text: string; readonly parts: readonly string[]; readonly min: number }
  | { readonly kind: 'globstar'; readonly text: '**' };

export interface FilesystemPattern {
  /** True for `~/…`: the user's home directory, which hubctl does not resolve. */
  readonly home: boolean;
  readonly segments: readonly PathSegment[];
  /** No wildcard anywhere: matches exactly one path. */
  readonly literal: boolean;
  readonly canonical: string;
}

export interface FilesystemDestination {
  readonly home: boolean;
  readonly segments: readonly string[];
  /** The normalized path (`/etc/passwd`, `~/src`, `/`, `~`). */
  readonly path: string;
}

export const FILESYSTEM_FORMS =
  'an absolute path (/data/file) or one under your home (~/src), with * inside a segment (/var/log/*.log) ' +
  'and ** across segments (/data/**)';

function badResource(value: string, problem: string): ValidationError {
  return new ValidationError(
    `invalid filesystem resource "${value}": ${problem}; allowed: ${FILESYSTEM_FORMS}`,
  );
}

function badPath(value: string, problem: string): ValidationError {
  return new ValidationError(
    `invalid filesystem path "${value}": ${problem}; a path is absolute (/…) or starts with ~/`,
  );
}

/** Splits on `/`, dropping empty segments and `.`; `..` handling is the caller's. */
function rawSegments(value: string, start: number): string[] {
  const out: string[] = [];
  let from = start;
  for (let i = start; i <= value.length; i++) {
    if (i === value.length || value.charCodeAt(i) === Ascii.Slash) {
      if (i > from) {
        const seg = value.slice(from, i);
        if (seg !== '.') out.push(seg);
      }
      from = i + 1;
    }
  }
  return out;
}

/** Where the path proper starts after its root: 1 for `/…`, 1 for `~` / `~/…`; -1 if neither. */
function rootOf(value: string): { home: boolean; start: number } | string {
  if (value === '') return 'it is empty';
  if (value.includes('\0')) return 'it contains a NUL character';
  const c = value.charCodeAt(0);
  if (c === Ascii.Slash) return { home: false, start: 1 };
  if (c === Ascii.Tilde) {
    if (value.length === 1 || value.charCodeAt(1) === Ascii.Slash) return { home: true, start: 1 };
    return '"~user" is not supported; write ~/… for your own home or an absolute path';
  }
  return 'it is relative';
}

function render(home: boolean, segs: readonly string[]): string {
  if (segs.length === 0) return home ? '~' : '/';
  return (home ? '~/' : '/') + segs.join('/');
}

/** Parses one filesystem resource of a rule; throws ValidationError naming it and the allowed forms. */
export function parseFilesystemResource(value: string): FilesystemPattern {
  const root = rootOf(value);
  if (typeof root === 'string') throw badResource(value, root);
  const texts = rawSegments(value, root.start);
  const segments: PathSegment[] = [];
  let literal = true;
  for (const text of texts) {
    if (text === '..') throw badResource(value, '".." is not allowed in a rule; write the resolved path');
    if (text === '**') {
      literal = false;
      if (segments[segments.length - 1]?.kind !== 'globstar') segments.push({ kind: 'globstar', text: '**' });
      continue;
    }
    if (text.includes('**')) throw badResource(value, `"**" must be a whole segment, not part of "${text}"`);
    if (text.includes('*')) {
      literal = false;
      const parts = text.split('*');
      let min = 0;
      for (const p of parts) min += p.length;
      segments.push(Object.freeze({ kind: 'glob', text, parts: Object.freeze(parts), min }));
      continue;
    }
    segments.push(Object.freeze({ kind: 'lit', text }));
  }
  const canonical = render(
    root.home,
    segments.map((s) => s.text),
  );
  return Object.freeze({ home: root.home, segments: Object.freeze(segments), literal, canonical });
}

/**
 * Parses and normalizes a request's path: repeated `/` collapsed, `.` removed, `..` resolved
 * (`/..` stays `/`; `..` above `~` is refused, since hubctl does not know the home directory).
 */
export function parseFilesystemDestination(value: string): FilesystemDestination {
  const root = rootOf(value);
  if (typeof root === 'string') throw badPath(value, root);
  const texts = rawSegments(value, root.start);
  let segs = texts;
  if (texts.includes('..')) {
    segs = [];
    for (const t of texts) {
      if (t !== '..') segs.push(t);
      else if (segs.length > 0) segs.pop();
      else if (root.home) throw badPath(value, '".." leaves the home directory, which hubctl cannot resolve');
    }
  }
  return { home: root.home, segments: segs, path: render(root.home, segs) };
}

/**
 * The characters of the path being decided, as UTF-16 code units: filled from a string or, by
 * `policy eval --batch`, from the input bytes, so that a path is walked by one implementation and
 * needs no string. Owned by a compiled set (no state in a module); grows for a longer path.
 */
export class PathScratch {
  chars = new Uint16Array(1024);

  /** Fills `chars` with `value`; returns its length. */
  load(value: string): number {
    const n = value.length;
    const c = this.room(n);
    for (let i = 0; i < n; i++) c[i] = value.charCodeAt(i);
    return n;
  }

  /** Fills `chars` with the bytes b[s, e) (ASCII: a byte is its character's code); returns the length. */
  loadBytes(b: Uint8Array, s: number, e: number): number {
    const n = e - s;
    const c = this.room(n);
    for (let i = 0; i < n; i++) c[i] = b[s + i]!;
    return n;
  }

  /** `chars`, grown to hold at least n characters. */
  private room(n: number): Uint16Array {
    if (n > this.chars.length) this.chars = new Uint16Array(Math.max(n, this.chars.length * 2));
    return this.chars;
  }
}

/**
 * Where the first segment of the path c[s, e) starts (after `/` or `~/`) when it is in normal form
 * (no empty, `.` or `..` segment, no trailing `/`, not `/` or `~` alone), else -1: it then takes
 * the parser, which also refuses NUL.
 */
export function normalPathStart(c: Uint16Array, s: number, e: number): number {
  let from: number;
  if (c[s] === Ascii.Slash) from = s + 1;
  else if (c[s] === Ascii.Tilde && s + 1 < e && c[s + 1] === Ascii.Slash) from = s + 2;
  else return -1;
  if (from >= e) return -1;
  const first = from;
  for (let i = from; i <= e; i++) {
    if (i < e && c[i] !== Ascii.Slash) {
      if (c[i] === 0) return -1;
      continue;
    }
    const len = i - from;
    if (len === 0) return -1;
    if (c[from] === Ascii.Dot && (len === 1 || (len === 2 && c[from + 1] === Ascii.Dot))) return -1;
    from = i + 1;
  }
  return first;
}

/**
 * The same request path in its other spelling when a home directory is known: `~/src` is also
 * `/home/me/src`, and `/home/me/src` is also `~/src`. Null when the path is not under home.
 * `homeSegments` are the segments of the absolute home directory (`/home/me` → ['home', 'me']).
 */
export function homeAlias(
  d: FilesystemDestination,
  homeSegments: readonly string[],
): FilesystemDestination | null {
  if (d.home) {
    const segments = [...homeSegments, ...d.segments];
    return { home: false, segments, path: render(false, segments) };
  }
  if (d.segments.length < homeSegments.length) return null;
  for (let i = 0; i < homeSegments.length; i++) if (d.segments[i] !== homeSegments[i]) return null;
  const segments = d.segments.slice(homeSegments.length);
  return { home: true, segments, path: render(true, segments) };
}

/**
 * `homeAlias` of an absolute path read in place (its segments c[from, e), in normal form): where the
 * rest after the home directory starts (e when nothing is left), or -1 when the path is not under
 * home. `home` is the home directory's segments as characters, `home/me`.
 */
export function homeTail(c: Uint16Array, from: number, e: number, home: Uint16Array): number {
  const end = from + home.length;
  if (end > e) return -1;
  for (let j = 0; j < home.length; j++) if (c[from + j] !== home[j]) return -1;
  if (end === e) return e;
  return c[end] === Ascii.Slash ? end + 1 : -1;
}

/** Segments of an absolute home directory; null when it is not a usable absolute path. */
export function homeSegmentsOf(home: string | undefined): readonly string[] | null {
  if (!home?.startsWith('/')) return null;
  const d = parseFilesystemDestination(home);
  return d.segments.length > 0 ? Object.freeze([...d.segments]) : null;
}
