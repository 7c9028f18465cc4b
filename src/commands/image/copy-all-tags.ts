// `image copy --all-tags`: list the source's tags (capped), copy them a few at a time through the
// one transfer, one line per tag on stderr, a summary, and the whole report with --json.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { copyAllTags, MAX_TAGS } from '../../image/all-tags.js';
import type { CopyOptions } from './copy-options.js';
import { placeDeps, platformChoice } from './shared.js';

/** Tags copied at once; each moves up to --concurrency blobs. */
const TAGS_AT_ONCE = 4;

export async function runAllTags(ctx: Context, opts: CopyOptions): Promise<number | undefined> {
  if (opts.src.transport !== 'registry' || opts.dst.transport !== 'registry')
    throw new UsageError('--all-tags copies between registry repositories');
  const src = { registry: opts.src.ref.registry, repository: opts.src.ref.repository };
  const dst = { registry: opts.dst.ref.registry, repository: opts.dst.ref.repository };
  const client = await ctx.registry();
  const tags: string[] = [];
  for await (const t of client.listTags(src)) {
    if (tags.length === MAX_TAGS)
      throw new UsageError(
        `${src.registry}/${src.repository} has more than ${MAX_TAGS} tags: copy them in parts`,
      );
    tags.push(t);
  }
  const progress = { begin() {}, update() {}, done() {}, stop() {} };
  const report = await copyAllTags(tags, {
    src,
    dst,
    deps: placeDeps(ctx),
    platforms: platformChoice(ctx, opts.platform, opts.platform === undefined),
    tagConcurrency: TAGS_AT_ONCE,
    blobConcurrency: opts.concurrency,
    referrers: opts.referrers,
    progress,
    onTag: (o) =>
      ctx.output.info(
        o.status === 'copied'
          ? `copied ${o.tag} ${o.digest} (${Object.entries(o.blobs ?? {})
              .map(([a, n]) => `${n} ${a}`)
              .join(', ')})`
          : `failed ${o.tag}: ${o.error}`,
      ),
  });
  if (ctx.output.json) ctx.output.printJson(report);
  else
    ctx.output.info(
      `Copied ${report.copied} of ${tags.length} tags from ${report.source} to ${report.destination}${report.failed ? `; ${report.failed} failed` : ''}.`,
    );
  return report.failed > 0 ? 1 : undefined;
}
