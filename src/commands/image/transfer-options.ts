// The options every transfer verb (pull, push, copy) shares: declared once, checked once and read
// once into the settings the verbs hand to the one transfer (shared.ts runTransfer). Push reads
// them its own way (every platform unless one is named) through the same checks.
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { parsePlatform } from '../../image/platform.js';
import { positiveInt } from '../host.js';

/** The transfer flags as commander hands them over. */
export interface TransferFlags {
  platform?: string;
  allPlatforms?: boolean;
  concurrency: number;
  keepDigests?: boolean;
  referrers?: boolean;
}

/** What pull and copy run with from the transfer flags. */
export interface TransferSettings {
  platform?: string;
  allPlatforms: boolean;
  concurrency: number;
  keepDigests: boolean;
  /** Carry the referrers along (signatures, SBOMs), recursively. */
  referrers?: boolean;
  /** --concurrency was not given: a registry's `concurrency` setting may replace it. */
  concurrencyDefault?: boolean;
}

/** `--concurrency`: blobs transferred at once, 1 to 32. */
export const concurrencyOption = positiveInt('--concurrency', 32);

/** Declares the flags every transfer verb shares. */
export function transferOptions(cmd: Command): Command {
  return cmd
    .option('--all-platforms', 'the index and every platform (not into a docker archive)')
    .option(
      '--platform <os/arch[/variant]>',
      "picked from an index; a single image must have it (default: this machine's)",
    )
    .option(
      '--keep-digests',
      'keep docker manifests as they are in oci: places (skopeo and podman cannot read them)',
    )
    .option('--concurrency <n>', 'blobs transferred at once', concurrencyOption, 4)
    .option(
      '--referrers',
      'carry what points at the image (signatures, SBOMs, attestations), recursively; digests kept',
    );
}

/** `{ concurrencyDefault: true }` when --concurrency was not given (a registry setting may apply). */
export function concurrencyDefaulted(cmd: Command): { concurrencyDefault?: true } {
  return cmd.getOptionValueSource('concurrency') === 'default' ? { concurrencyDefault: true } : {};
}

/** Usage errors of the flags' combinations, before any request. */
export function checkFlags(o: TransferFlags): void {
  if (o.platform !== undefined && o.allPlatforms)
    throw new UsageError('--platform and --all-platforms cannot be used together');
  if (o.platform !== undefined) parsePlatform(o.platform);
}

/** The flags checked and read into the settings of pull and copy. */
export function transferSettings(o: TransferFlags, cmd: Command): TransferSettings {
  checkFlags(o);
  return {
    platform: o.platform,
    allPlatforms: Boolean(o.allPlatforms),
    concurrency: o.concurrency,
    keepDigests: Boolean(o.keepDigests),
    referrers: Boolean(o.referrers),
    ...concurrencyDefaulted(cmd),
  };
}
