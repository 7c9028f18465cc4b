// Matching rule path patterns against normalized request paths: `*` within a segment, `**` across
// segments, and what each wildcard took (for `--explain`). Pure: no IO.
import type { FilesystemDestination, FilesystemPattern, PathSegment } from './path.js';

/** `*` within one segment: literal pieces in order, first at the start, last at the end. */
export function matchGlobSegment(parts: readonly string[], min: number, s: string): boolean {
  if (s.length < min) return false;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!s.startsWith(first) || !s.endsWith(last)) return false;
  let pos = first.length;
  const limit = s.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const p = parts[k]!;
    if (p === '') continue;
    const at = s.indexOf(p, pos);
    if (at < 0 || at + p.length > limit) return false;
    pos = at + p.length;
  }
  return true;
}

export function matchSegment(seg: PathSegment, s: string): boolean {
  if (seg.kind === 'lit') return seg.text === s;
  if (seg.kind === 'glob') return matchGlobSegment(seg.parts, seg.min, s);
  return true;
}

/**
 * Does a pattern match a normalized path? `**` takes any number of segments (zero included).
 */
export function matchPath(p: FilesystemPattern, d: FilesystemDestination): boolean {
  return alignPath(p, d) !== null;
}

/**
 * Aligns a pattern with a path: a linear-time two-pointer walk that backtracks only to the last
 * `**`. Returns where each pattern segment began in the path (plus the path's length at the end),
 * or null when the pattern does not match.
 */
function alignPath(p: FilesystemPattern, d: FilesystemDestination): number[] | null {
  if (p.home !== d.home) return null;
  const ps = p.segments;
  const ds = d.segments;
  const start: number[] = new Array(ps.length + 1).fill(0);
  let i = 0;
  let j = 0;
  let starI = -1;
  let starJ = 0;
  while (j < ds.length) {
    const seg = ps[i];
    if (seg !== undefined && seg.kind === 'globstar') {
      start[i] = j;
      starI = i++;
      starJ = j;
    } else if (seg !== undefined && matchSegment(seg, ds[j]!)) {
      start[i] = j;
      i++;
      j++;
    } else if (starI >= 0) {
      i = starI + 1;
      j = ++starJ;
    } else {
      return null;
    }
  }
  while (i < ps.length && ps[i]!.kind === 'globstar') start[i++] = j;
  if (i !== ps.length) return null;
  start[ps.length] = ds.length;
  return start;
}

/**
 * What each wildcard of a matching pattern took from the path, for `--explain`:
 * `"**" took "app/main.go"`, `"*.log" took "x.log"`; null when the pattern does not match.
 */
export function describePathMatch(p: FilesystemPattern, d: FilesystemDestination): string | null {
  const start = alignPath(p, d);
  if (start === null) return null;
  const ps = p.segments;
  const ds = d.segments;
  const parts: string[] = [];
  ps.forEach((seg, k) => {
    if (seg.kind === 'globstar') {
      const taken = ds.slice(start[k], start[k + 1]);
      parts.push(taken.length === 0 ? '"**" took nothing' : `"**" took "${taken.join('/')}"`);
    } else if (seg.kind === 'glob') {
      parts.push(`"${seg.text}" took "${ds[start[k]!]}"`);
    }
  });
  return parts.join(', ');
}
