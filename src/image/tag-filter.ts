// Tag filters, as `image tags` and `image sync` use them: `include` and `exclude` regular
// expressions, a `semver` range, then `latest: N` (the newest N by semver), in that order. A tag is
// taken or not as it arrives (a repository of 10,000 tags is never held whole); only `latest` keeps
// a bounded set of the best so far.
//
// Ranges are npm's (the `semver` package): `>=20.0.0`, `^1.2`, `~3.1.0`, `1.x || 2.x`, `1.2 - 1.4`.
// The package is the reference implementation of that grammar (pre-release rules, x-ranges,
// hyphen ranges, `||`); a smaller matcher of our own would differ from it in exactly the cases
// users copy from package.json. A tag is a version when it parses as one, a leading `v` allowed
// (`v1.2.3`); pre-releases (`1.2.3-rc.1`, and so `20.1.0-alpine`) match a range only when the range
// names one of the same version, as npm decides.

import semver from 'semver';
import { UsageError } from '../errors.js';

export interface TagFilterSpec {
  include?: readonly string[];
  exclude?: readonly string[];
  semver?: string;
  /** Keep the newest N by semver (after the other filters). */
  latest?: number;
  sort?: 'semver' | 'name';
}

/** A regular expression from a flag or a file: bounded, and one sentence when it is wrong. */
export function compilePattern(source: string, what: string): RegExp {
  if (source.length > 1000) throw new UsageError(`${what}: the pattern is longer than 1000 characters`);
  try {
    return new RegExp(source);
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'invalid';
    throw new UsageError(`${what}: "${source.slice(0, 80)}" is not a valid regular expression (${why})`);
  }
}

/** The version a tag names, or undefined (`v1.2.3` → 1.2.3). */
export function versionOf(tag: string): semver.SemVer | undefined {
  return semver.parse(tag.startsWith('v') ? tag.slice(1) : tag) ?? undefined;
}

/** Checks a range; one sentence when npm would not read it. */
export function checkRange(range: string, what: string): semver.Range {
  if (range.length > 256) throw new UsageError(`${what}: the range is longer than 256 characters`);
  try {
    return new semver.Range(range);
  } catch {
    throw new UsageError(
      `${what}: "${range.slice(0, 80)}" is not a semver range (as in >=1.2.0, ^20, 1.x || 2.x)`,
    );
  }
}

/** Orders tags by version (oldest first); tags that are not versions come after, by name. */
export function compareTags(a: string, b: string): number {
  const va = versionOf(a);
  const vb = versionOf(b);
  if (va && vb) return semver.compare(va, vb) || (a < b ? -1 : a > b ? 1 : 0);
  if (va) return -1;
  if (vb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export class TagFilter {
  private readonly include: RegExp[];
  private readonly exclude: RegExp[];
  private readonly range?: semver.Range;
  private kept: string[] = [];
  /** Tags seen, and tags taken by the filters before `latest`. */
  seen = 0;

  constructor(
    private readonly spec: TagFilterSpec,
    /** Prefixed to the key in messages: `--` for flags, `sync.yaml: tags.` for a file. */
    what = '',
  ) {
    this.include = (spec.include ?? []).map((p) => compilePattern(p, `${what}include`));
    this.exclude = (spec.exclude ?? []).map((p) => compilePattern(p, `${what}exclude`));
    if (spec.semver !== undefined) this.range = checkRange(spec.semver, `${what}semver`);
    if (spec.latest !== undefined && (!Number.isSafeInteger(spec.latest) || spec.latest < 1))
      throw new UsageError(`${what}latest: expected a whole number of 1 or more`);
  }

  /** include (any), then exclude (none), then the range. */
  accepts(tag: string): boolean {
    if (this.include.length > 0 && !this.include.some((r) => r.test(tag))) return false;
    if (this.exclude.some((r) => r.test(tag))) return false;
    if (this.range) {
      const v = versionOf(tag);
      if (!v || !this.range.test(v)) return false;
    }
    return true;
  }

  /** Offers a tag; answers whether the filters before `latest` took it. */
  add(tag: string): boolean {
    this.seen++;
    if (!this.accepts(tag)) return false;
    this.kept.push(tag);
    const n = this.spec.latest;
    // `latest: N` keeps at most 2N between trims: memory stays bounded by N, not by the repository.
    if (n !== undefined && this.kept.length > 2 * n + 16) this.kept = this.newest(n);
    return true;
  }

  private newest(n: number): string[] {
    return this.kept
      .filter((t) => versionOf(t))
      .sort(compareTags)
      .slice(-n);
  }

  /** The tags taken, after `latest`, in the order asked for (as listed by default). */
  result(): string[] {
    let tags = this.spec.latest !== undefined ? this.newest(this.spec.latest) : [...this.kept];
    if (this.spec.sort === 'semver' || (this.spec.latest !== undefined && this.spec.sort === undefined))
      tags = tags.sort(compareTags);
    else if (this.spec.sort === 'name') tags = tags.sort();
    return tags;
  }
}
