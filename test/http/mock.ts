// A strict undici MockAgent for HTTP unit tests: no real network, and every stub must be used.
import { MockAgent } from 'undici';
import type { Clock } from '../../src/clock.js';
import { createHttpClient, type HttpClient } from '../../src/http/client.js';

export const ORIGIN = 'https://hub.example.test';

export interface RecordingClock extends Clock {
  sleeps: number[];
}

/** A clock that records every sleep and moves time forward by it, without waiting. */
export function recordingClock(start = Date.parse('2026-11-22T12:00:00Z')): RecordingClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

export function strictAgent(): MockAgent {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return agent;
}

export function clientWith(
  agent: MockAgent,
  opts: { clock?: Clock; debug?: (line: string) => void; maxRetries?: number } = {},
): HttpClient {
  return createHttpClient({
    userAgent: 'hubctl-test',
    clock: opts.clock ?? recordingClock(),
    dispatcher: agent,
    retryBaseMs: 100,
    random: () => 1,
    debug: opts.debug,
    maxRetries: opts.maxRetries,
  });
}

export function resetError(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/**
 * A client as a network command has it (direct routes, so large blobs on h1.ts), for real servers
 * on loopback: retries at once (1 ms backoff, no jitter), `timeoutMs` for heads and gaps, and any
 * `more` options (a CA file, say).
 */
export function loopbackClient(
  timeoutMs = 5_000,
  more: Partial<Parameters<typeof createHttpClient>[0]> = {},
): HttpClient {
  return createHttpClient({
    userAgent: 't',
    clock: recordingClock(),
    timeoutMs,
    retryBaseMs: 1,
    random: () => 0,
    ...more,
  });
}
