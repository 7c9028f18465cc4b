import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { formatBytes } from '../../output/progress.js';
import { type CommandHost, examples, positiveInt } from '../host.js';
import { concurrencyFor, placeDeps } from './shared.js';

export interface SyncOptions {
  file: string;
  dryRun: boolean;
  concurrency: number;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('sync')
    .description('Mirror many repositories from a file: plan, then copy what is missing (idempotent)')
    .requiredOption(
      '-f, --file <sync.yaml>',
      'the sync file (see the README: sync, source, destination, tags…)',
    )
    .option('--dry-run', 'print the plan only: what is copied, already there, filtered out')
    .option(
      '--concurrency <n>',
      'tags planned and copied at once (1 to 32)',
      positiveInt('--concurrency', 32),
      4,
    )
    .action((o: { file: string; dryRun?: boolean; concurrency: number }) => {
      const opts: SyncOptions = { file: o.file, dryRun: Boolean(o.dryRun), concurrency: o.concurrency };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image sync -f sync.yaml --dry-run',
    'hubctl image sync -f sync.yaml --concurrency 8',
    'hubctl image sync -f sync.yaml --json',
  ]);
}

export async function run(ctx: Context, opts: SyncOptions): Promise<number | undefined> {
  const { readSyncFile } = await import('../../image/sync-file.js');
  const { sync } = await import('../../image/sync.js');
  const mappings = await readSyncFile(opts.file);
  const client = await ctx.registry();
  const progress = { begin() {}, update() {}, done() {}, stop() {} };
  const report = await sync(
    mappings,
    {
      places: placeDeps(ctx),
      listTags: (repo) => client.listTags(repo),
      progress,
      now: () => ctx.clock.now(),
    },
    {
      concurrency: opts.concurrency,
      // Blobs per tag: the smallest `registry.HOST.concurrency` of the registries named, else 4.
      blobConcurrency: await concurrencyFor(
        ctx,
        mappings
          .flatMap((m) => [m.source, m.destination])
          .map((r) => ({
            transport: 'registry' as const,
            ref: { registry: r.registry, repository: r.repository },
          })),
        undefined,
      ),
      dryRun: opts.dryRun,
      onItem: (i) => {
        const what = `${i.source} → ${i.destination}`;
        if (i.status === 'failed') ctx.output.warn(`failed ${what}: ${i.error}`);
        else if (opts.dryRun) {
          // The plan is the dry run's data, a line each as it is made (no field holds a space).
          if (!ctx.output.json)
            ctx.output.line(`${i.status} ${i.source} ${i.destination} ${i.digest ?? ''}`.trimEnd());
        } else ctx.output.info(`copied ${what} ${i.digest} (${formatBytes(i.bytes ?? 0)})`);
      },
      onFiltered: (source, tag) => {
        if (opts.dryRun && !ctx.output.json) ctx.output.line(`filtered ${source}:${tag}`);
      },
    },
  );
  if (ctx.output.json) ctx.output.printJson(report);
  else {
    const planned = report.items.filter((i) => i.status === 'copy').length;
    ctx.output.info(
      opts.dryRun
        ? `Plan: ${planned} to copy, ${report.already} already there, ${report.filtered} filtered out, ${report.failed} failed.`
        : `Copied ${report.copied}, ${report.already} already there, ${report.filtered} filtered out, ${report.failed} failed; ${formatBytes(report.bytes)} in ${report.seconds} s.`,
    );
  }
  return report.failed > 0 ? 1 : undefined;
}
