// Every command answers --help with exit 0, and every verb's help carries examples (issue 2, part 2).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HELP_WIDTH, renderedHelp } from '../../src/help-text.js';
import { buildProgram, topLevelHelp, walkCommands } from '../../src/program.js';
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

describe('pre-rendered top-level help (dist/help.json, needs a build)', () => {
  it("equals commander's own rendering, so it cannot drift", async () => {
    const built = JSON.parse(readFileSync(new URL('../../dist/help.json', import.meta.url), 'utf8'));
    const wide = await topLevelHelp(Number.MAX_SAFE_INTEGER);
    expect(built).toEqual(renderedHelp(await topLevelHelp(HELP_WIDTH), wide));
    expect(wide).toContain('Usage: hubctl [options] [command]');
  });

  it('is what bin/hubctl.js --help prints through a pipe', async () => {
    const bin = new URL('../../bin/hubctl.js', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env: { PATH: '' } });
    expect(out).toBe(await topLevelHelp(HELP_WIDTH));
  });
});
