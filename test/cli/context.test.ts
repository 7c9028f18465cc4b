import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext, DEFAULT_GLOBALS } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { tempConfigDir } from '../support/run-cli.js';

const io = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  stdin: Readable.from([]),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
};

describe('context', () => {
  it('the config directory: HUBCTL_CONFIG_DIR, else XDG_CONFIG_HOME/hubctl, else ~/.config/hubctl', () => {
    expect(createContext({ io, env: { HUBCTL_CONFIG_DIR: '/c', HOME: '/h' } }).configDir()).toBe('/c');
    expect(createContext({ io, env: { XDG_CONFIG_HOME: '/x', HOME: '/h' } }).configDir()).toBe('/x/hubctl');
    expect(createContext({ io, env: { HOME: '/h' } }).configDir()).toBe('/h/.config/hubctl');
    expect(createContext({ io, env: { HUBCTL_CONFIG_DIR: '/c' } }).stateDir()).toBe('/c/state');
  });

  it('org(): a usage error that says how to set one', async () => {
    const ctx = createContext({ io, env: { HUBCTL_CONFIG_DIR: tempConfigDir() } });
    const err = await ctx.org().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).hint).toContain('hubctl config set org');
    const withFlag = createContext(
      { io, env: { HUBCTL_CONFIG_DIR: tempConfigDir(), HUBCTL_ORG: 'env-org' } },
      {
        ...DEFAULT_GLOBALS,
        org: 'flag-org',
      },
    );
    expect(await withFlag.org()).toBe('flag-org');
  });

  it('clients are memoised: one config store, one session per run', async () => {
    const ctx = createContext({ io, env: { HUBCTL_CONFIG_DIR: tempConfigDir() } });
    expect(await ctx.config()).toBe(await ctx.config());
    expect(await ctx.hubSession()).toBe(await ctx.hubSession());
  });

  it('reads standard input whole', async () => {
    const ctx = createContext({
      io: { ...io, stdin: Readable.from([Buffer.from('a'), Buffer.from('b\n')]) },
      env: {},
    });
    expect(await ctx.readStdin()).toBe('ab\n');
  });
});
