import { describe, expect, it } from 'vitest';
import { parsePolicyDocument } from '../../src/policy/document.js';
import { compilePolicies, evaluate } from '../../src/policy/engine.js';
import { homeAlias, homeSegmentsOf, parseFilesystemDestination } from '../../src/policy/path.js';
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
