// What the image verbs share: the registry client built from the context, the machine's
// platform, the state stores, and the progress display.

import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { RegistryClient } from '../../api/registry/client.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type PlatformSpec, parsePlatform, platformOf } from '../../image/platform.js';
import { KnownBlobs, UploadStateStore } from '../../image/resume-state.js';
import type { TransferResult } from '../../image/types.js';
import { createTransferProgress, type TransferProgress } from '../../output/progress.js';
import { positiveInt } from '../host.js';

export async function registryClient(ctx: Context): Promise<RegistryClient> {
  const http = await ctx.http();
  let chain: Awaited<ReturnType<Context['credentials']>> | undefined;
  return new RegistryClient({
    http,
    clock: ctx.clock,
    plainHttpHosts: ctx.globals.plainHttp,
    signal: ctx.signal,
    credentials: async (registry) => {
      chain ??= await ctx.credentials();
      const cred = await chain.registry(registry.toLowerCase());
      return cred ? { username: cred.username, secret: cred.secret } : undefined;
    },
  });
}

/** `--platform`, else HUBCTL_PLATFORM, else this machine's (linux/<arch>). */
export function wantedPlatform(ctx: Context, flag: string | undefined): PlatformSpec {
  if (flag !== undefined) return parsePlatform(flag);
  if (ctx.env.HUBCTL_PLATFORM) return parsePlatform(ctx.env.HUBCTL_PLATFORM);
  return platformOf(platform(), arch());
}

export function stores(ctx: Context): { uploads: UploadStateStore; known: KnownBlobs } {
  const dir = ctx.stateDir();
  return {
    uploads: new UploadStateStore(join(dir, 'uploads'), () => ctx.clock.now()),
    known: new KnownBlobs(join(dir, 'known-blobs.json')),
  };
}

/** Size knobs for uploads (bytes), from the environment; tests use small ones. */
export function uploadSizes(ctx: Context): { monolithicMax?: number; chunkSize?: number } {
  const num = (name: string): number | undefined => {
    const v = ctx.env[name];
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v) || Number(v) < 1)
      throw new UsageError(`${name} must be a whole number of bytes (got "${v}")`);
    return Number(v);
  };
  return { monolithicMax: num('HUBCTL_MONOLITHIC_MAX'), chunkSize: num('HUBCTL_CHUNK_SIZE') };
}

/**
 * Runs a pull, push or copy with the progress display, stops the display (also on failure) before
 * anything else is printed, then prints the result.
 */
export async function transferWithProgress(
  ctx: Context,
  verb: string,
  transfer: (progress: TransferProgress) => Promise<TransferResult>,
): Promise<void> {
  const progress = await createTransferProgress(ctx.io, { json: ctx.globals.json, quiet: ctx.globals.quiet });
  let result: TransferResult;
  try {
    result = await transfer(progress);
  } finally {
    progress.stop();
  }
  printTransfer(ctx, verb, result);
}

export function note(ctx: Context): (line: string) => void {
  return (line) => ctx.debug(line);
}

/** The result of pull, push and copy: JSON, or `reference@digest` on stdout and a summary on stderr. */
export function printTransfer(ctx: Context, verb: string, result: TransferResult): void {
  if (ctx.output.json) {
    ctx.output.printJson({ reference: result.reference, digest: result.digest, blobs: result.blobs });
    return;
  }
  const counts = new Map<string, number>();
  for (const b of result.blobs) counts.set(b.action, (counts.get(b.action) ?? 0) + 1);
  const summary = [...counts].map(([a, n]) => `${n} ${a}`).join(', ');
  ctx.output.info(
    `${verb} ${result.reference} (${result.blobs.length} blobs${summary ? `: ${summary}` : ''})`,
  );
  ctx.output.line(`${result.reference.replace(/@sha256:[a-f0-9]{64}$/, '')}@${result.digest}`);
}

/** `--concurrency`: blobs transferred at once, 1 to 32. */
export const concurrencyOption = positiveInt('--concurrency', 32);
