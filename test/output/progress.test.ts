import { describe, expect, it } from 'vitest';
import {
  createTransferProgress,
  formatBytes,
  formatEta,
  formatRate,
  RateMeter,
} from '../../src/output/progress.js';
import { fakeIo } from '../support/fake-io.js';

const io = (tty: boolean) => fakeIo(tty, { columns: 100 });

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;

describe('transfer progress', () => {
  it('off a terminal: one stderr line per finished blob, nothing on stdout', async () => {
    const { io: i, out } = io(false);
    const p = await createTransferProgress(i, { json: false, quiet: false });
    p.begin(A, 2048);
    p.update(A, 1024);
    p.done(A, 2048, 'pushed');
    p.done(B, 5 * 1024 * 1024, 'mounted');
    p.stop();
    expect(out.stderr).toBe('pushed aaaaaaaaaaaa 2.0 KiB\nmounted bbbbbbbbbbbb 5.0 MiB\n');
    expect(out.stdout).toBe('');
  });

  it('nothing at all with --json or --quiet, even on a terminal', async () => {
    for (const opts of [
      { json: true, quiet: false },
      { json: false, quiet: true },
    ]) {
      const { io: i, out } = io(true);
      const p = await createTransferProgress(i, opts);
      p.begin(A, 10);
      p.done(A, 10, 'pulled');
      p.stop();
      expect(out).toEqual({ stdout: '', stderr: '' });
    }
  });

  it('on a terminal: cli-progress bars per blob and a total, on stderr', async () => {
    const { io: i, out } = io(true);
    const p = await createTransferProgress(i, { json: false, quiet: false });
    p.begin(A, 1000);
    p.begin(B, 3000);
    p.update(A, 500);
    p.done(A, 1000, 'pushed');
    p.done(B, 3000, 'skipped');
    p.stop();
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('aaaaaaaaaaaa');
    expect(out.stderr).toContain('bbbbbbbbbbbb');
    expect(out.stderr).toMatch(/total\s+[█░]+ 100%/);
    expect(out.stderr).toContain('pushed');
    expect(out.stderr).toContain('\x1b['); // drawn with cursor movements
  });

  it('a blob sent while it was made moves from its source digest to its own: one bar, one total', async () => {
    const { io: i, out } = io(true);
    const p = await createTransferProgress(i, { json: false, quiet: false });
    p.begin(A, 4000);
    p.update(A, 1000);
    p.relabel?.(A, B, 2000);
    p.done(B, 2000, 'pushed');
    p.stop();
    const last = out.stderr.slice(out.stderr.lastIndexOf('total'));
    expect(last).toMatch(/total\s+█+ 100% +2\.0 KiB\/2\.0 KiB/);
    expect(last).toMatch(/bbbbbbbbbbbb █+ 100% +2\.0 KiB\/2\.0 KiB +pushed/);
    expect(last).not.toContain('aaaaaaaaaaaa');
  });

  it('formats sizes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(512 * 1024 * 1024)).toBe('512.0 MiB');
  });

  it('the total and a blob being sent show the rate and the time left, within 80 columns', async () => {
    let t = 0;
    const { io: i, out } = fakeIo(true, { columns: 80 });
    const p = await createTransferProgress(i, { json: false, quiet: false, now: () => t });
    const MiB = 1024 * 1024;
    p.begin(A, 100 * MiB);
    p.begin(B, 1023 * 1024 * MiB);
    for (let s = 1; s <= 4; s++) {
      t = s * 1000;
      p.update(A, s * 10 * MiB);
    }
    p.stop();
    // Each line as drawn: the last frame's lines, cursor movements taken out.
    const frame = out.stderr.slice(out.stderr.lastIndexOf(' total'));
    const lines = frame.split(/\r?\n|\u001b\[[0-9;]*[A-Za-z]/).filter((l) => l.trim() !== '');
    const blobA = lines.find((l) => l.includes('aaaaaaaaaaaa'))!;
    // 40 MiB of 100 in 4 s at 10 MiB/s: 6 s left.
    expect(blobA).toMatch(/ 40% +40\.0 MiB\/100\.0 MiB +10\.0 MiB\/s +6s sending$/);
    const totalLine = lines.find((l) => l.includes('total'))!;
    expect(totalLine).toMatch(/10\.0 MiB\/s +\d+h\d\dm sending$/);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(79);
  });

  it('rate over a sliding window; time left and rate formats', () => {
    const m = new RateMeter();
    m.add(0, 0);
    m.add(200, 100);
    expect(m.rate()).toBeUndefined(); // too short a span
    m.add(1000, 1000);
    expect(m.rate()).toBe(1000);
    // A stall: the window slides past the fast start, the rate falls.
    m.add(7000, 1000);
    expect(m.rate()).toBe(0);
    expect(formatEta(45)).toBe('45s');
    expect(formatEta(245)).toBe('4m05s');
    expect(formatEta(7800)).toBe('2h10m');
    expect(formatEta(1e9)).toBe('>99h');
    expect(formatEta(undefined)).toBe('');
    expect(formatRate(10 * 1024 * 1024)).toBe('10.0 MiB/s');
    expect(formatRate(1023.9 * 1024 * 1024).length).toBeLessThanOrEqual(12);
  });
});
