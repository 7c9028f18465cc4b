import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFilesystemDestination } from '../../src/policy/path.js';
import { naivePath } from '../support/naive-evaluator.js';

// The parser normalizes a request's path as the naive normalizer does; the engine reads paths in
// normal form in place (engine-home.test.ts compares the two).
describe('parseFilesystemDestination', () => {
  it.each([
    ['/', false, [], '/'],
    ['~', true, [], '~'],
    ['~/', true, [], '~'],
    ['/etc/passwd', false, ['etc', 'passwd'], '/etc/passwd'],
    ['/a//b/', false, ['a', 'b'], '/a/b'],
    ['~/src/x/', true, ['src', 'x'], '~/src/x'],
    ['/a/./b', false, ['a', 'b'], '/a/b'],
    ['/a/../b', false, ['b'], '/b'],
    ['/a/b/..', false, ['a'], '/a'],
    ['/..', false, [], '/'],
    ['/a/.hidden/..x/...', false, ['a', '.hidden', '..x', '...'], '/a/.hidden/..x/...'],
    ['/a/.', false, ['a'], '/a'],
  ])('%s', (value, home, segments, path) => {
    expect(parseFilesystemDestination(value)).toEqual({ home, segments, path });
  });
  it.each([
    ['', 'empty'],
    ['/a\0b', 'NUL'],
    ['rel/x', 'relative'],
    ['~user/x', '~user'],
    ['~/../x', 'leaves the home directory'],
  ])('refuses %j', (value, fragment) => {
    expect(() => parseFilesystemDestination(value)).toThrow(fragment);
  });

  it('reads every path as the naive normalizer does', () => {
    const segment = fc.constantFrom('a', 'b.c', '', '.', '..', '...', '.x', 'x.', '~');
    const path = fc.oneof(
      fc.constant('~'),
      fc
        .tuple(fc.constantFrom('/', '~/'), fc.array(segment, { maxLength: 6 }))
        .map(([root, segs]) => root + segs.join('/')),
    );
    fc.assert(
      fc.property(path, (p) => {
        let want: string;
        try {
          want = naivePath(p);
        } catch {
          expect(() => parseFilesystemDestination(p)).toThrow('leaves the home directory');
          return;
        }
        const got = parseFilesystemDestination(p);
        expect(got.path === '/' ? '' : got.path).toBe(want);
        expect(got.segments.map((x) => `/${x}`).join('')).toBe(want.replace(/^~/, ''));
        expect(got.home).toBe(p.startsWith('~'));
      }),
      { numRuns: 5_000 },
    );
  });
});
