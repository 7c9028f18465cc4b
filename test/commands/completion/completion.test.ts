// The scripts complete for real: each shell runs the generated script and answers a few completions.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/run-cli.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'hubctl-compl-'));
const scripts: Record<string, string> = {};

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    scripts[shell] = join(dir, `hubctl.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
});

function bashComplete(words: string[]): string[] {
  const arr = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    [
      '-c',
      `source "$1"; COMP_WORDS=(${arr}); COMP_CWORD=${words.length - 1}; _hubctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'x',
      scripts.bash!,
    ],
    { encoding: 'utf8' },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash completion', () => {
  it('hubctl tok<TAB> → token', () => {
    expect(bashComplete(['hubctl', 'tok'])).toEqual(['token']);
  });

  it('hubctl token <TAB> offers its verbs', () => {
    const got = bashComplete(['hubctl', 'token', '']);
    expect(got).toEqual(
      expect.arrayContaining(['create', 'list', 'get', 'activate', 'deactivate', 'delete']),
    );
    expect(got).not.toContain('login');
  });

  it('skips global options and their values to find the command', () => {
    expect(bashComplete(['hubctl', '--org', 'acme', '--json', 'auth', 'lo'])).toEqual(['login', 'logout']);
    // The value of --profile is not taken for a command name.
    expect(bashComplete(['hubctl', '--profile', 'token', 'con'])).toEqual(['config']);
  });

  it('completes the options of a verb', () => {
    expect(bashComplete(['hubctl', 'token', 'create', '--l'])).toEqual(['--label']);
    expect(bashComplete(['hubctl', 'token', 'list', '--page', '2', '--'])).toEqual(
      expect.arrayContaining(['--page', '--page-size', '--all', '--json']),
    );
  });

  it('offers the fixed values of an argument: hubctl completion <TAB>', () => {
    expect(bashComplete(['hubctl', 'completion', ''])).toEqual(
      expect.arrayContaining(['bash', 'zsh', 'fish']),
    );
    expect(bashComplete(['hubctl', 'completion', 'z'])).toEqual(['zsh']);
  });

  it('registers itself for hubctl', () => {
    const r = spawnSync('bash', ['-c', 'source "$1"; complete -p hubctl', 'x', scripts.bash!], {
      encoding: 'utf8',
    });
    expect(r.stdout.trim()).toBe('complete -F _hubctl hubctl');
  });
});

describe.skipIf(!has('zsh'))('zsh completion', () => {
  function zshComplete(words: string[]): string[] {
    const arr = words.map((w) => `'${w}'`).join(' ');
    const r = spawnSync(
      'zsh',
      [
        '-c',
        `compdef() { :; }; compadd() { shift; print -l -- "$@"; }; source "$1"; words=(${arr}); CURRENT=${words.length}; _hubctl`,
        'x',
        scripts.zsh!,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  }

  it('offers groups, then verbs, then options, printing nothing else', () => {
    expect(zshComplete(['hubctl', ''])).toEqual(expect.arrayContaining(['token', 'auth', '--json']));
    const verbs = zshComplete(['hubctl', '--org', 'acme', 'token', '']);
    expect(verbs).toEqual(expect.arrayContaining(['create', 'delete']));
    expect(verbs).not.toContain('policy');
    expect(zshComplete(['hubctl', 'token', 'create', '--l'])).toEqual(
      expect.arrayContaining(['--label', '--scope']),
    );
  });
});

describe.skipIf(!has('fish'))('fish completion', () => {
  function fishComplete(line: string): string[] {
    const r = spawnSync('fish', ['-c', `source $argv[1]; complete -C "${line}"`, scripts.fish!], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!);
  }

  it('completes groups, verbs and options', () => {
    expect(fishComplete('hubctl tok')).toEqual(['token']);
    expect(fishComplete('hubctl token ')).toEqual(expect.arrayContaining(['create', 'list', 'delete']));
    expect(fishComplete('hubctl token create --l')).toEqual(['--label']);
    expect(fishComplete('hubctl completion ')).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
  });
});
