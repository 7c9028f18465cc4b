import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type CommandHost, examples } from '../host.js';

export interface ListOptions {
  /** A reference pattern for the engine's `reference` filter (`app`, `team/*:1`). */
  pattern?: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('list')
    .alias('ls')
    .description('List the images in the container engine, optionally matching a reference pattern')
    .argument('<place>', 'docker-daemon: or docker-daemon:PATTERN')
    .action((place: string) => {
      if (!place.startsWith('docker-daemon:')) {
        throw new UsageError(
          `image list reads the engine: write docker-daemon: or docker-daemon:PATTERN (got "${place}")`,
          {
            hint: 'For a registry, use `hubctl image tags REPOSITORY`.',
          },
        );
      }
      const pattern = place.slice('docker-daemon:'.length);
      return host.run((ctx) => runner(ctx, pattern ? { pattern } : {}));
    });
  return examples(cmd, [
    'hubctl image list docker-daemon:',
    "hubctl image list 'docker-daemon:team/*' --json",
  ]);
}

export async function run(ctx: Context, opts: ListOptions): Promise<void> {
  const { listEngineImages } = await import('../../api/engine/images.js');
  const images = await listEngineImages(await ctx.engine(), opts.pattern);
  const rows = images.map((i) => ({
    id: i.Id,
    repoTags: i.RepoTags ?? [],
    repoDigests: i.RepoDigests ?? [],
    created: typeof i.Created === 'number' ? new Date(i.Created * 1000).toISOString() : null,
    size: i.Size ?? null,
  }));
  if (ctx.output.json) {
    ctx.output.printList(rows);
    return;
  }
  await ctx.output.table(
    ['REFERENCE', 'ID', 'CREATED', { header: 'SIZE', align: 'right' }],
    rows.flatMap((r) =>
      (r.repoTags.length ? r.repoTags : ['<none>']).map((tag) => [
        tag,
        r.id.replace(/^sha256:/, '').slice(0, 12),
        ctx.output.time(r.created),
        r.size,
      ]),
    ),
  );
}
