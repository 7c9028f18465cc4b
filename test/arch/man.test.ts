// The man pages in man/ are what the command tree gives now (src/man-page.ts; `npm run man`
// regenerates them), package.json ships and lists every one, and `man -l` renders each without a
// warning.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { manPages } from '../../src/man-page.js';
import { buildProgram } from '../../src/program.js';
import { VERSION } from '../../src/version.js';
import { describeWithTools } from '../support/tools.js';

const ROOT = resolve(import.meta.dirname, '../..');
const io = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  stdin: Readable.from([]),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
};
const { program } = await buildProgram({ io, env: {} }, [], 'all');
const pages = manPages(program, VERSION);
const shipped = readdirSync(join(ROOT, 'man')).filter((f) => f.endsWith('.1'));

describe('man pages', () => {
  it('one for hubctl and one per visible command group; man/ holds exactly them, as generated now', () => {
    const groups = program
      .createHelp()
      .visibleCommands(program)
      .map((c) => c.name())
      .filter((n) => n !== 'help');
    expect(Object.keys(pages).sort()).toEqual(['hubctl.1', ...groups.map((g) => `hubctl-${g}.1`)].sort());
    expect(shipped.sort(), 'run `npm run man`').toEqual(Object.keys(pages).sort());
    for (const [name, text] of Object.entries(pages))
      expect(readFileSync(join(ROOT, 'man', name), 'utf8'), `run \`npm run man\` (${name})`).toBe(text);
  });

  it('package.json ships man/ and names every page for `npm install -g`', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.files).toContain('man');
    expect([...pkg.man].sort()).toEqual(shipped.map((f) => `man/${f}`).sort());
  });

  it('hubctl.1 has the exit codes and every environment variable of `hubctl help environment`', () => {
    const text = pages['hubctl.1']!;
    expect(text).toContain('.SH EXIT STATUS');
    expect(text).toMatch(/^ +10 +policy diff/m);
    expect(text).toContain('HUBCTL_HTTP_TIMEOUT');
    expect(text).toContain('.BR hubctl\\-policy (1)');
  });
});

describeWithTools(['man'], 'man -l renders each page', () => {
  for (const name of shipped) {
    it(`${name}`, () => {
      const r = spawnSync('man', ['--warnings', '-l', join(ROOT, 'man', name)], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat', LC_ALL: 'C.UTF-8' },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const title = name.replace(/\.1$/, '').toUpperCase();
      expect(r.stdout).toMatch(new RegExp(`^${title}\\(1\\)`));
      expect(r.stdout).toContain('NAME');
      // No roff request leaked into the text (an unescaped line starting with "." or "'").
      expect(r.stdout).not.toMatch(/^\s*\.(TH|SH|TP|B|BR|nf|fi|RS|RE|PP)\b/m);
      if (name !== 'hubctl.1') expect(r.stdout).toContain('Examples:');
    });
  }
});
