import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { colorEnabled } from '../../src/output/io.js';
import { createOutput } from '../../src/output/output.js';
import { createPrompter } from '../../src/output/prompt.js';
import { fakeIo } from '../support/fake-io.js';

const ANSI = /\u001b\[/;

describe('output', () => {
  it('piped: tables are tab-separated rows without a header, one record a line', async () => {
    const { io, out } = fakeIo(false);
    const o = createOutput(io, { json: false, quiet: false, color: true });
    await o.table(
      ['A', 'B'],
      [
        ['x', 1],
        ['tab\there', null],
        ['new\nline', true],
      ],
    );
    expect(out.stdout).toBe('x\t1\ntab\\there\t\nnew\\nline\ttrue\n');
  });

  it('on a terminal: a boxed-free aligned table with a header, coloured only when colour is on', async () => {
    const plain = fakeIo(true);
    await createOutput(plain.io, { json: false, quiet: false, color: false }).table(
      ['NAME', 'N'],
      [['alpha', 1]],
    );
    expect(plain.out.stdout).toMatch(/NAME\s+N/);
    expect(plain.out.stdout).toMatch(/alpha\s+1/);
    expect(plain.out.stdout).not.toMatch(ANSI);
    const coloured = fakeIo(true);
    await createOutput(coloured.io, { json: false, quiet: false, color: true }).table(['NAME'], [['alpha']]);
    expect(coloured.out.stdout).toMatch(ANSI);
  });

  it('fields: tab-separated when piped, aligned on a terminal', async () => {
    const piped = fakeIo(false);
    await createOutput(piped.io, { json: false, quiet: false, color: false }).fields([
      ['Account', 'alice'],
      ['Expires', undefined],
    ]);
    expect(piped.out.stdout).toBe('Account\talice\nExpires\t\n');
    const tty = fakeIo(true);
    await createOutput(tty.io, { json: false, quiet: false, color: false }).fields([
      ['A', 1],
      ['Longer', 2],
    ]);
    expect(tty.out.stdout).toBe('A:      1\nLonger: 2\n');
  });

  it('printJson is indented JSON with a newline', () => {
    const { io, out } = fakeIo(false);
    createOutput(io, { json: true, quiet: false, color: false }).printJson({ a: [1] });
    expect(out.stdout).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });

  it('info is silent with --quiet or --json; warn only with --json', () => {
    const q = fakeIo(false);
    const quiet = createOutput(q.io, { json: false, quiet: true, color: false });
    quiet.info('hidden');
    quiet.warn('shown');
    expect(q.out.stderr).toBe('shown\n');
    const j = fakeIo(false);
    const json = createOutput(j.io, { json: true, quiet: false, color: false });
    json.info('x');
    json.warn('y');
    expect(j.out.stderr).toBe('');
    expect(j.out.stdout).toBe('');
  });

  it('times: ISO 8601 when piped, short UTC form on a terminal', () => {
    const iso = '2026-11-22T12:34:56.123456Z';
    expect(createOutput(fakeIo(false).io, { json: false, quiet: false, color: false }).time(iso)).toBe(iso);
    expect(createOutput(fakeIo(true).io, { json: false, quiet: false, color: false }).time(iso)).toBe(
      '2026-11-22 12:34:56Z',
    );
    expect(createOutput(fakeIo(true).io, { json: false, quiet: false, color: false }).time(null)).toBe('');
  });

  it('style leaves the text uncoloured when colour is off; line prints it', async () => {
    const { io, out } = fakeIo(true);
    const o = createOutput(io, { json: false, quiet: false, color: false });
    o.line([await o.style('x', 'red', 'bold'), ': y']);
    expect(out.stdout).toBe('x: y\n');
  });
});

describe('terminal safety', () => {
  // What a hostile server puts in a name: retitle the terminal, clear the screen, forge a line,
  // a C1 CSI, and a right-to-left override.
  const evil = 'a\u001b]0;pwned\u0007b\u001b[2Jc\nhubctl: forged\u009b31m\u202eZ';
  const shown = 'a\\x1b]0;pwned\\x07b\\x1b[2Jc\\nhubctl: forged\\x9b31m\\u202eZ';
  // Tab and newline are the TSV's own separators; any other control character is raw.
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  it.each([false, true])('escapes every writer (tty %s): line, table, fields, info, warn', async (tty) => {
    const { io, out } = fakeIo(tty);
    const o = createOutput(io, { json: false, quiet: false, color: tty });
    o.line(evil);
    await o.table(['NAME'], [[evil]]);
    await o.fields([['Name', evil]]);
    o.info(evil);
    o.warn(evil);
    o.line([await o.style(evil, 'red'), evil]);
    // Colour codes come only from style(); nothing of the server's survives raw.
    const stdout = out.stdout.replace(/\u001b\[\d+m/g, '');
    expect(stdout).not.toMatch(RAW);
    expect(out.stderr).not.toMatch(RAW);
    expect(out.stderr).toBe(`${shown}\n${shown}\n`);
    expect(stdout.split('\n').filter((l) => l.includes('forged'))).toHaveLength(4);
    expect(stdout).toContain(shown);
  });

  it('a server cannot smuggle colour through line: only style() colours', async () => {
    const { io, out } = fakeIo(true);
    const o = createOutput(io, { json: false, quiet: false, color: true });
    o.line('\u001b[31mred');
    expect(out.stdout).toBe('\\x1b[31mred\n');
    o.line(await o.style('\u001b[31mred', 'green'));
    expect(out.stdout).toContain('\u001b[32m\\x1b[31mred\u001b[39m');
  });

  it('JSON keeps the value and writes DEL, C1 and bidi characters as \\u escapes', () => {
    const { io, out } = fakeIo(false);
    const value = { name: evil, del: '\u007f', sep: '\u2028' };
    createOutput(io, { json: true, quiet: false, color: false }).printJson(value);
    expect(out.stdout).not.toMatch(RAW);
    expect(out.stdout).not.toMatch(/[\u2028\u007f]/);
    expect(JSON.parse(out.stdout)).toEqual(value);
  });

  it('verbatim: the bytes as they came when piped, escaped but multi-line on a terminal', () => {
    const doc = '{\n  "a": "\u009b2J\u202e"\n}';
    const piped = fakeIo(false);
    createOutput(piped.io, { json: false, quiet: false, color: false }).verbatim(doc);
    expect(piped.out.stdout).toBe(`${doc}\n`);
    const tty = fakeIo(true);
    createOutput(tty.io, { json: false, quiet: false, color: false }).verbatim(doc);
    expect(tty.out.stdout).toBe('{\n  "a": "\\x9b2J\\u202e"\n}\n');
  });

  it('a question on the terminal is escaped too', async () => {
    const { io, out } = fakeIo(true);
    io.stdin = Readable.from(['n\n']);
    await createPrompter(io).confirm(`Delete ${evil}?`);
    // The question is readline's prompt (so its redraws keep it), escaped; around it, readline's
    // own line editing.
    expect(out.stderr).toContain(`Delete ${shown}? [y/N] `);
    expect(out.stderr).not.toContain(evil);
  });
});

describe('colour decision', () => {
  it('only on a TTY, never with NO_COLOR or --no-color; FORCE_COLOR forces it', () => {
    const tty = fakeIo(true).io;
    const pipe = fakeIo(false).io;
    expect(colorEnabled(tty, {}, true)).toBe(true);
    expect(colorEnabled(pipe, {}, true)).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' }, true)).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' }, true)).toBe(true);
    expect(colorEnabled(tty, {}, false)).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' }, true)).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1', FORCE_COLOR: '1' }, true)).toBe(false);
  });
});

describe('prompter', () => {
  it('refuses to ask when stdin is not a terminal', async () => {
    const p = createPrompter(fakeIo(false).io);
    await expect(p.secret('Password: ')).rejects.toBeInstanceOf(UsageError);
    await expect(p.confirm('Sure?')).rejects.toBeInstanceOf(UsageError);
  });

  it('reads an answer from a terminal stdin, and does not echo a secret', async () => {
    const { io, out } = fakeIo(true);
    io.stdin = Readable.from(['hunter2\n']);
    expect(await createPrompter(io).secret('Password: ')).toBe('hunter2');
    expect(out.stderr).toBe('Password: \n');
    const yes = fakeIo(true);
    yes.io.stdin = Readable.from(['y\n']);
    expect(await createPrompter(yes.io).confirm('Delete?')).toBe(true);
    const no = fakeIo(true);
    no.io.stdin = Readable.from(['\n']);
    expect(await createPrompter(no.io).confirm('Delete?')).toBe(false);
  });
});
