// Pacing for the audit API: its limits (100 requests a minute and 1,000 an hour per organization)
// are shared by every client of the organization, so one long read keeps to a share of them and
// waits, saying so, before it would take more. Clock injected: tests never sleep.
import type { Clock } from '../clock.js';
import { UsageError } from '../errors.js';

export interface PaceLimits {
  /** Requests this run may send in any 60 s (default 50: half the organization's minute). */
  perMinute: number;
  /** Requests this run may send in any hour (default 500: half the organization's hour). */
  perHour: number;
}

export const DEFAULT_PACE: PaceLimits = { perMinute: 50, perHour: 500 };

export class Pacer {
  /** Send times of the last hour, oldest first (at most perHour of them). */
  private readonly sent: number[] = [];

  constructor(
    private readonly clock: Clock,
    readonly limits: PaceLimits,
    private readonly onWait?: (ms: number, why: string) => void,
  ) {}

  /** Waits until one more request keeps within the limits, then counts it. */
  async take(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - 3_600_000) this.sent.shift();
      const wait = this.waitMs(now);
      if (wait <= 0) {
        this.sent.push(now);
        return;
      }
      this.onWait?.(wait, wait > 60_000 ? 'an hour' : 'a minute');
      await this.clock.sleep(wait, signal);
    }
  }

  private waitMs(now: number): number {
    let wait = 0;
    if (this.sent.length >= this.limits.perHour) {
      wait = this.sent[this.sent.length - this.limits.perHour]! + 3_600_000 - now;
    }
    // The minute's requests are the newest ones, so the minute is full when the perMinute-th
    // newest is in it (one look, not a count of the minute's requests at every request).
    const n = this.limits.perMinute;
    if (this.sent.length >= n) {
      const oldest = this.sent[this.sent.length - n]!;
      if (oldest > now - 60_000) wait = Math.max(wait, oldest + 60_000 - now);
    }
    return wait;
  }
}

/**
 * HUBCTL_AUDIT_MAX_RPM: this run's requests a minute (1–6000; the hour's share is ten times it, at
 * most 1,000 while it is within the organization's minute). For emulators and benches; the default
 * keeps half of the organization's limits for others.
 */
export function paceFromEnv(value: string | undefined): PaceLimits | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 6000)
    throw new UsageError(
      `HUBCTL_AUDIT_MAX_RPM must be a whole number from 1 to 6000 (got ${JSON.stringify(value.slice(0, 20))})`,
    );
  const perMinute = Number(value);
  return { perMinute, perHour: perMinute <= 100 ? Math.min(1000, perMinute * 10) : perMinute * 60 };
}
