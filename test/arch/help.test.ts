// Every command answers --help with exit 0, and every verb's help carries examples (issue 2, part 2).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram, walkCommands } from '../../src/program.js';
import { runCli } from '../support/run-cli.js';

const io = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  stdin: Readable.from([]),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
};
const { program } = await buildProgram({ io, env: {} }, [], 'all');
const commands = walkCommands(program);

describe('help everywhere', () => {
  it('walks a tree of groups and verbs', () => {
    expect(commands.length).toBeGreaterThan(20);
  });

  for (const { path, command } of commands) {
    const leaf = command.commands.length === 0;
    it(`hubctl ${path.join(' ')} --help${leaf ? ' has examples' : ''}`, async () => {
      const r = await runCli([...path, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: hubctl ${path.join(' ')}`);
      expect(r.stderr).toBe('');
      if (leaf) expect(r.stdout).toMatch(/Examples:\n\s+\$ .*hubctl /);
    });
  }
});
