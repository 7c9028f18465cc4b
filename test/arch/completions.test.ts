// The completion scripts in completions/ must match the command tree: every command and long option
// appears in each, and each file is exactly what `hubctl completion <shell>` prints now.
// When this fails after a command or option changed: `npm run completions`.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram, walkCommands } from '../../src/program.js';
import { runCli } from '../support/run-cli.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = {
  bash: 'completions/hubctl.bash',
  zsh: 'completions/_hubctl',
  fish: 'completions/hubctl.fish',
} as const;
const read = (shell: keyof typeof FILES) => readFileSync(join(ROOT, FILES[shell]), 'utf8');

let tree: { path: string[]; longs: string[] }[];
let globalLongs: string[];

beforeAll(async () => {
  const io = {
    stdout: { write: () => true },
    stderr: { write: () => true },
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
  };
  const { program } = await buildProgram({ io, env: {} }, [], 'all');
  const longs = (c: typeof program) => c.options.filter((o) => !o.hidden && o.long).map((o) => o.long!);
  globalLongs = longs(program);
  // Hidden commands (`__complete`, which the scripts call themselves) are not offered.
  const help = program.createHelp();
  const visible = (path: string[]) => {
    let cmd = program;
    for (const name of path) {
      const sub = help.visibleCommands(cmd).find((c) => c.name() === name);
      if (!sub) return false;
      cmd = sub;
    }
    return true;
  };
  tree = walkCommands(program)
    .filter(({ path }) => visible(path))
    .map(({ path, command }) => ({ path, longs: longs(command) }));
});

describe('completions in sync with the command tree', () => {
  it('the tree holds every group and the foundation verbs', () => {
    const paths = tree.map((t) => t.path.join(' '));
    for (const p of [
      'policy',
      'rule',
      'token',
      'image',
      'auth',
      'config',
      'completion',
      'token create',
      'token delete',
      'auth login',
      'config unset',
    ]) {
      expect(paths).toContain(p);
    }
  });

  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it(`${FILES[shell]} names every command and long option`, () => {
      const text = read(shell);
      const missing: string[] = [];
      for (const { path, longs } of tree) {
        const name = path.at(-1)!;
        if (!new RegExp(`(^|[\\s"'])${name}([\\s"']|$)`, 'm').test(text)) missing.push(path.join(' '));
        if (shell === 'fish') {
          for (const l of longs)
            if (!text.includes(`-l ${l.slice(2)}`)) missing.push(`${path.join(' ')} ${l}`);
        } else {
          // The option is offered in the arm of its own command.
          const arm = new RegExp(`"${path.join(' ')}"\\) cands="([^"]*)"`).exec(text)?.[1]?.split(' ') ?? [];
          for (const l of longs) if (!arm.includes(l)) missing.push(`${path.join(' ')} ${l}`);
        }
      }
      for (const l of globalLongs)
        if (!text.includes(shell === 'fish' ? `-l ${l.slice(2)}` : l)) missing.push(l);
      expect(missing, 'run `npm run completions`').toEqual([]);
    });

    it(`${FILES[shell]} is exactly what \`hubctl completion ${shell}\` prints`, async () => {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(read(shell), 'run `npm run completions`').toBe(r.stdout);
    });
  }
});
