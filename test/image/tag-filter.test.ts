// Tag filters (src/image/tag-filter.ts) as the issue orders them: include, exclude, semver, then
// latest; expected answers worked out by hand from npm's range rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { compareTags, TagFilter } from '../../src/image/tag-filter.js';

const run = (spec: ConstructorParameters<typeof TagFilter>[0], tags: string[]) => {
  const f = new TagFilter(spec);
  for (const t of tags) f.add(t);
  return f.result();
};

const TAGS = [
  '20.1.0',
  '20.1.0-rc1',
  '21.0.0',
  '19.9.9',
  'latest',
  '22.0.0',
  'v23.0.0',
  '20.2',
  '22.0.0-alpine',
];

describe('TagFilter', () => {
  it("the issue's example: include, exclude, semver, latest 3", () => {
    expect(
      run({ include: ['^\\d+\\.\\d+\\.\\d+$'], exclude: ['-rc'], semver: '>=20.0.0', latest: 3 }, TAGS),
    ).toEqual(['20.1.0', '21.0.0', '22.0.0']);
  });
  it('without filters every tag, as listed; sort name and sort semver', () => {
    expect(run({}, TAGS)).toEqual(TAGS);
    expect(run({ sort: 'name' }, ['b', 'a', '10', '9'])).toEqual(['10', '9', 'a', 'b']);
    expect(run({ sort: 'semver' }, ['latest', '1.10.0', 'v1.9.0', '1.2.3-rc.1', '1.2.3', 'edge'])).toEqual([
      '1.2.3-rc.1',
      '1.2.3',
      'v1.9.0',
      '1.10.0',
      'edge',
      'latest',
    ]);
  });
  it('a range takes versions only (v prefix allowed); pre-releases only where the range names one', () => {
    expect(run({ semver: '^20' }, TAGS)).toEqual(['20.1.0']);
    expect(run({ semver: '>=22.0.0' }, TAGS)).toEqual(['22.0.0', 'v23.0.0']);
    expect(run({ semver: '>=20.1.0-rc0 <20.1.0' }, TAGS)).toEqual(['20.1.0-rc1']);
    expect(run({ semver: '1.x || >=22' }, TAGS)).toEqual(['22.0.0', 'v23.0.0']);
  });
  it('include is any of, exclude none of', () => {
    expect(run({ include: ['^19', '^21'] }, TAGS)).toEqual(['21.0.0', '19.9.9']);
    expect(run({ exclude: ['-', '^v', '\\.'] }, TAGS)).toEqual(['latest']);
  });
  it('latest N keeps the newest N, whatever the order and however many tags come', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `1.${(i * 7919) % 10_000}.0`);
    expect(run({ latest: 2 }, many)).toEqual(['1.9998.0', '1.9999.0']);
  });
  it('a wrong pattern, range or count is one usage sentence naming the key', () => {
    expect(() => new TagFilter({ include: ['('] }, '--')).toThrow(
      /^--include: "\(" is not a valid regular expression/,
    );
    expect(() => new TagFilter({ semver: 'not a range' }, 'x: tags.')).toThrow(
      /^x: tags.semver: "not a range" is not a semver range/,
    );
    expect(() => new TagFilter({ latest: 0 })).toThrow(UsageError);
  });
  it('property: the result is what include/exclude/semver take, the newest N of them with latest', () => {
    const tag = fc.oneof(
      fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30)).map(([a, b, c]) => `${a}.${b}.${c}`),
      fc.constantFrom('latest', 'edge', 'v1.2.3', '2.0.0-rc.1', '3.1'),
    );
    fc.assert(
      fc.property(fc.array(tag, { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (tags, n) => {
        const taken = tags.filter((t) => /^\d/.test(t) && !t.includes('rc'));
        const all = run({ include: ['^\\d'], exclude: ['rc'] }, tags);
        expect(all).toEqual(taken);
        const newest = run({ include: ['^\\d'], exclude: ['rc'], latest: n }, tags);
        const versions = taken.filter((t) => /^\d+\.\d+\.\d+$/.test(t)).sort(compareTags);
        expect(newest).toEqual(versions.slice(-n));
      }),
    );
  });
});
