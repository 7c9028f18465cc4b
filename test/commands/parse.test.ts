// Argument parsing apart from behaviour: each verb's register() with a spy in place of run(), and a
// host that hands the body a sentinel context. Nothing is sent anywhere.
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import * as login from '../../src/commands/auth/login.js';
import * as logout from '../../src/commands/auth/logout.js';
import * as configSet from '../../src/commands/config/set.js';
import type { CommandHost } from '../../src/commands/host.js';
import * as create from '../../src/commands/token/create.js';
import * as del from '../../src/commands/token/delete.js';
import * as list from '../../src/commands/token/list.js';
import * as setActive from '../../src/commands/token/set-active.js';
import type { Context } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';

const CTX = { sentinel: true } as unknown as Context;
const host: CommandHost = {
  run: async (body) => {
    await body(CTX);
  },
};

function parse(register: (group: Command) => unknown, argv: string[]) {
  const group = new Command('g')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  register(group);
  return group.parseAsync(argv, { from: 'user' });
}

describe('token create parsing', () => {
  it('collects repeated and comma-separated scopes, de-duplicated', async () => {
    const spy = vi.fn(async () => undefined);
    await parse(
      (g) => create.register(g, host, spy),
      [
        'create',
        '--label',
        'ci',
        '--scope',
        'repo:read,repo:write',
        '--scope',
        'repo:read',
        '--expires',
        '30d',
      ],
    );
    expect(spy).toHaveBeenCalledWith(CTX, {
      label: 'ci',
      scopes: ['repo:read', 'repo:write'],
      expires: '30d',
    });
  });

  it('refuses bad input before run is called', async () => {
    const spy = vi.fn(async () => undefined);
    await expect(
      parse((g) => create.register(g, host, spy), ['create', '--label', 'x']),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      parse(
        (g) => create.register(g, host, spy),
        ['create', '--label', 'x', '--scope', 'repo:read', '--expires', '0d'],
      ),
    ).rejects.toThrow('--expires must lie in the future');
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('token list parsing', () => {
  it('defaults to page 1 of 10', async () => {
    const spy = vi.fn(async () => undefined);
    await parse((g) => list.register(g, host, spy), ['list']);
    expect(spy).toHaveBeenCalledWith(CTX, { all: false, page: 1, pageSize: 10 });
    await parse((g) => list.register(g, host, spy), ['list', '--all', '--page-size', '50']);
    expect(spy).toHaveBeenLastCalledWith(CTX, { all: true, page: 1, pageSize: 50 });
  });
});

describe('token get/activate/deactivate/delete parsing', () => {
  it('lower-cases a UUID, passes a label on, and refuses what is neither', async () => {
    const spy = vi.fn(async () => undefined);
    await parse(
      (g) => setActive.register(g, host, 'deactivate', spy),
      ['deactivate', '3F2B8C1E-6D4A-4E0B-9A57-1C2D3E4F5A6B'],
    );
    expect(spy).toHaveBeenCalledWith(CTX, '3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b', false);
    await parse((g) => del.register(g, host, spy), ['delete', 'ci-deploy']);
    expect(spy).toHaveBeenLastCalledWith(CTX, 'ci-deploy');
    await expect(parse((g) => del.register(g, host, spy), ['delete', 'x'.repeat(101)])).rejects.toThrow(
      'is neither a token UUID nor a label',
    );
  });
});

describe('auth parsing', () => {
  it('login: a Docker Hub alias means the hub account; another host is a registry, normalised', async () => {
    const spy = vi.fn(async () => undefined);
    await parse((g) => login.register(g, host, spy), ['login', 'docker.io', '-u', 'a', '--password-stdin']);
    expect(spy).toHaveBeenLastCalledWith(CTX, { registry: undefined, username: 'a', passwordStdin: true });
    await parse((g) => login.register(g, host, spy), ['login', 'https://Registry.Example.com:5000/']);
    expect(spy).toHaveBeenLastCalledWith(CTX, {
      registry: 'registry.example.com:5000',
      username: undefined,
      passwordStdin: false,
    });
  });

  it('login: a secret as an argument never reaches run', async () => {
    const spy = vi.fn(async () => undefined);
    await expect(parse((g) => login.register(g, host, spy), ['login', '-u', 'a', '-p', 's'])).rejects.toThrow(
      'never taken as a command-line argument',
    );
    expect(spy).not.toHaveBeenCalled();
  });

  it('logout: an optional registry host', async () => {
    const spy = vi.fn(async () => undefined);
    await parse((g) => logout.register(g, host, spy), ['logout', 'localhost:5000']);
    expect(spy).toHaveBeenCalledWith(CTX, 'localhost:5000');
  });
});

describe('config set parsing', () => {
  it('checks the key and the value before run', async () => {
    const spy = vi.fn(async () => undefined);
    await parse((g) => configSet.register(g, host, spy), ['set', 'base-url', 'https://hub.example.com///']);
    expect(spy).toHaveBeenCalledWith(CTX, 'base-url', 'https://hub.example.com');
    await expect(parse((g) => configSet.register(g, host, spy), ['set', 'nope', 'x'])).rejects.toThrow(
      'unknown setting',
    );
  });
});

describe('the group named on the command line', () => {
  it("skips every global option's value, whatever it says", async () => {
    const { groupFromArgv } = await import('../../src/program.js');
    expect(groupFromArgv(['--plain-http', 'policy', '--org', 'image', 'token', 'list'])).toBe('token');
    expect(groupFromArgv(['--profile', 'rule', '--engine-host', 'x', 'image', 'ls'])).toBe('image');
    expect(groupFromArgv(['--json', 'policy', 'eval'])).toBe('policy');
    expect(groupFromArgv(['--', 'token'])).toBeUndefined();
  });
});
