import { describe, expect, it } from 'vitest';
import { Pacer, paceFromEnv } from '../../src/audit/pacer.js';
import { fixedClock } from '../support/run-cli.js';

describe('Pacer', () => {
  it('keeps to its share of the minute and of the hour, waiting on the clock and saying so', async () => {
    const clock = fixedClock(0);
    const waits: number[] = [];
    const p = new Pacer(clock, { perMinute: 3, perHour: 5 }, (ms) => waits.push(ms));
    for (let i = 0; i < 3; i++) await p.take();
    expect(clock.now()).toBe(0);
    await p.take();
    expect(clock.now()).toBe(60_000);
    expect(waits).toEqual([60_000]);
    await p.take();
    await p.take();
    // The sixth in the hour waits for the first to leave it.
    expect(clock.now()).toBe(3_600_000);
  });
  it('counts a sliding minute: each request past the share waits for the oldest of the minute to leave it', async () => {
    const clock = fixedClock(0);
    const waits: number[] = [];
    const p = new Pacer(clock, { perMinute: 3, perHour: 100 }, (ms) => waits.push(ms));
    for (const at of [0, 20_000, 40_000]) {
      clock.advance(at - clock.now());
      await p.take();
    }
    // the fourth: the minute holds 0, 20 s and 40 s, until 0 leaves it at 60 s
    await p.take();
    expect(clock.now()).toBe(60_000);
    // the fifth: 20 s, 40 s and 60 s, until 80 s
    await p.take();
    expect(clock.now()).toBe(80_000);
    expect(waits).toEqual([20_000, 20_000]);
    // after a quiet minute, three go at once again
    clock.advance(70_000);
    for (let i = 0; i < 3; i++) await p.take();
    expect(clock.now()).toBe(150_000);
    expect(waits).toHaveLength(2);
  });
  it('reads HUBCTL_AUDIT_MAX_RPM', () => {
    expect(paceFromEnv(undefined)).toBeUndefined();
    expect(paceFromEnv('20')).toEqual({ perMinute: 20, perHour: 200 });
    expect(() => paceFromEnv('0')).toThrow(/HUBCTL_AUDIT_MAX_RPM/);
    expect(() => paceFromEnv('lots')).toThrow(/HUBCTL_AUDIT_MAX_RPM/);
  });
});
