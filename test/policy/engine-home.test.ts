import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { homeAlias, homeSegmentsOf, parseFilesystemDestination } from '../../src/policy/path.js';
import { naiveEvaluate } from '../support/naive-evaluator.js';
import { runCli } from '../support/run-cli.js';

const policy = JSON.stringify({
  name: 'fs',
  rules: [
    { name: 'src', actions: ['read'], decision: 'allow', resources: ['~/src/**'] },
    { name: 'keys', actions: ['read'], decision: 'deny', resources: ['/home/me/.ssh/**'] },
  ],
});

describe('~ and the home directory', () => {
  it('spells a path under home both ways, and nothing outside it', () => {
    const home = homeSegmentsOf('/home/me/')!;
    expect(home).toEqual(['home', 'me']);
    expect(homeAlias(parseFilesystemDestination('/home/me/src/a'), home)?.path).toBe('~/src/a');
    expect(homeAlias(parseFilesystemDestination('~/src/a'), home)?.path).toBe('/home/me/src/a');
    expect(homeAlias(parseFilesystemDestination('/home/me'), home)?.path).toBe('~');
    expect(homeAlias(parseFilesystemDestination('/home/meme/x'), home)).toBeNull();
    expect(homeAlias(parseFilesystemDestination('/etc/passwd'), home)).toBeNull();
    expect(homeSegmentsOf('relative/dir')).toBeNull();
    expect(homeSegmentsOf(undefined)).toBeNull();
  });

  it('without a home, ~ rules never match absolute paths (the pure default)', async () => {
    const set = compilePolicies(await parsePolicyDocument(policy, 'p.json'));
    expect(evaluate(set, 'read', '/home/me/src/a.go').decision).toBe('deny');
    expect(evaluate(set, 'read', '~/src/a.go').decision).toBe('allow');
    expect(evaluate(set, 'read', '~/.ssh/id_rsa').reason).toMatch(/no rule matched/);
  });

  it('with a home, both spellings match rules of both kinds, and deny still wins', async () => {
    const set = compilePolicies(await parsePolicyDocument(policy, 'p.json'), { home: '/home/me' });
    expect(evaluate(set, 'read', '/home/me/src/a.go').decision).toBe('allow');
    expect(evaluate(set, 'read', '~/src/a.go').decision).toBe('allow');
    const denied = evaluate(set, 'read', '~/.ssh/id_rsa', { explain: true });
    expect(denied.decision).toBe('deny');
    expect(denied.matched).toEqual([
      expect.objectContaining({
        rule: 'keys',
        why: 'pattern /home/me/.ssh/** matches /home/me/.ssh/id_rsa: "**" took "id_rsa"',
      }),
    ]);
    expect(evaluate(set, 'read', '/home/other/src/a.go').decision).toBe('deny');
  });

  it('decides a path read in place as the naive evaluator decides both its spellings, odd paths refused alike', async () => {
    // The reference: the naive evaluator on the parsed path and on its other spelling under home,
    // deny winning over both; a path the parser refuses is refused by the engine too.
    const rules = [
      { name: 'src', actions: ['read'], decision: 'allow', resources: ['~/src/**', '/opt/*/bin'] },
      { name: 'keys', actions: ['read'], decision: 'deny', resources: ['/home/me/.ssh/**', '~/src/secret'] },
      { name: 'home', actions: ['read'], decision: 'allow', resources: ['/home/me', '~/é/*.txt'] },
      { name: 'all', actions: ['read'], decision: 'allow', resources: ['/home/**/x'] },
    ];
    const docs = await parsePolicyDocument(JSON.stringify({ name: 'fs', rules }), 'p.json');
    const set = compilePolicies(docs, { home: '/home/me' });
    const home = homeSegmentsOf('/home/me')!;
    const decide = (path: string) => {
      try {
        const r = evaluate(set, 'read', path);
        return { decision: r.decision, rules: r.matched.map((m) => m.rule).sort() };
      } catch (err) {
        return (err as Error).message;
      }
    };
    const reference = (path: string) => {
      let fd: ReturnType<typeof parseFilesystemDestination>;
      try {
        fd = parseFilesystemDestination(path);
      } catch (err) {
        return (err as Error).message;
      }
      const spellings = [fd.path, homeAlias(fd, home)?.path].filter((x) => x !== undefined);
      const matched = spellings.flatMap((x) => naiveEvaluate(docs, 'read', x).matched);
      const deny = matched.some((m) => m.decision === 'deny');
      const deciding = matched.filter((m) => (m.decision === 'deny') === deny).map((m) => m.rule);
      return {
        decision: deny || matched.length === 0 ? 'deny' : 'allow',
        rules: [...new Set(deciding)].sort(),
      };
    };
    const seg = fc.constantFrom(
      'home',
      'me',
      'src',
      'secret',
      '.ssh',
      'x',
      'opt',
      'a',
      'bin',
      'é',
      'n.txt',
      '.',
      '..',
      '',
      'a\0b',
    );
    const path = fc
      .tuple(fc.constantFrom('/', '~/', '~', '', '~me/'), fc.array(seg, { maxLength: 5 }))
      .map(([root, segs]) => root + segs.join('/'));
    const odd = [
      '/',
      '~',
      '~/',
      '/home/me',
      '/home/me/',
      '/home/me/.',
      '/home/mex',
      '/home',
      '~/src/../.ssh/k',
    ];
    for (const p of odd) expect(decide(p), p).toEqual(reference(p));
    fc.assert(
      fc.property(path, (p) => {
        expect(decide(p), p).toEqual(reference(p));
      }),
      { numRuns: 3_000 },
    );
    // both answers occur, so the comparison tells them apart
    expect(decide('/home/me/src/a')).toMatchObject({ decision: 'allow' });
    expect(decide('~/.ssh/k')).toMatchObject({ decision: 'deny' });
  });

  it('policy eval uses $HOME, so a path the shell expanded matches ~ rules', async () => {
    const r = await runCli(
      ['policy', 'eval', 'read', '/home/me/src/app/main.go', '-f', 'examples/filesystem.yaml'],
      {
        env: { HOME: '/home/me' },
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^allow\n/);
    const other = await runCli(
      ['policy', 'eval', 'read', '/home/me/src/app/main.go', '-f', 'examples/filesystem.yaml'],
      {
        env: { HOME: '/home/someone-else' },
      },
    );
    expect(other.code).toBe(3);
  });
});
