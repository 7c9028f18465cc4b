import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { CancelledError } from '../../errors.js';
import { type DeletePlan, executeDelete, planDelete } from '../../image/delete.js';
import { isIndexType } from '../../oci/media-types.js';
import { type ImageReference, parseReference } from '../../ref/reference.js';
import { type CommandHost, confirmDestructive, examples } from '../host.js';

export interface DeleteOptions {
  ref: ImageReference;
  dryRun: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('delete')
    .description('Delete a manifest by digest; lists every tag that goes with it and asks first')
    .argument('<ref>', 'image reference (tag or @sha256:…)')
    .option('--dry-run', 'only list what would be deleted')
    .action((ref: string, o: { dryRun?: boolean }) => {
      const opts: DeleteOptions = {
        ref: parseReference(ref, { defaultTag: true }),
        dryRun: Boolean(o.dryRun),
      };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl image delete localhost:5000/team/app:old --dry-run',
    'hubctl image delete localhost:5000/team/app@sha256:… --yes',
  ]);
}

export async function run(ctx: Context, opts: DeleteOptions): Promise<number | undefined> {
  const client = await ctx.registry();
  const plan = await planDelete(client, opts.ref);
  const repo = `${opts.ref.registry}/${opts.ref.repository}`;
  const tagList = plan.tags.length > 0 ? plan.tags.join(', ') : '(no tags)';
  if (opts.dryRun) {
    if (ctx.output.json)
      ctx.output.printJson({
        reference: plan.reference,
        digest: plan.digest,
        tags: plan.tags,
        ...(plan.kept ? { kept: plan.kept } : {}),
        deleted: false,
      });
    else {
      ctx.output.line(`${repo}@${plan.digest}`);
      for (const t of plan.tags) ctx.output.line(`${repo}:${t}`);
      for (const line of keptLines(plan)) ctx.output.info(line);
      ctx.output.info('Dry run: nothing was deleted.');
    }
    return undefined;
  }
  if (!ctx.output.json && !ctx.globals.yes) {
    ctx.output.warn(`Deleting ${repo}@${plan.digest} also removes the tags: ${tagList}`);
    for (const line of keptLines(plan)) ctx.output.warn(line);
  }
  const keptNote = plan.kept
    ? ` The ${count(plan.kept.length, 'manifest')} below it ${plan.kept.length === 1 ? 'stays' : 'stay'}.`
    : '';
  if (
    !(await confirmDestructive(ctx, `Delete ${repo}@${plan.digest} and its tags (${tagList})?${keptNote}`))
  ) {
    throw new CancelledError('nothing was deleted');
  }
  const outcome = await executeDelete(client, opts.ref, plan.digest);
  if (ctx.output.json) {
    ctx.output.printJson({
      reference: plan.reference,
      digest: plan.digest,
      tags: plan.tags,
      ...(plan.kept ? { kept: plan.kept } : {}),
      deleted: true,
      outcome,
    });
  } else if (outcome === 'background') {
    ctx.output.info(
      `The registry will finish the deletion of ${repo}@${plan.digest} in the background.${keptNote}`,
    );
  } else {
    ctx.output.info(`Deleted ${repo}@${plan.digest} (tags: ${tagList}).${keptNote}`);
  }
  return undefined;
}

/** What a delete leaves behind when it deletes an index: the manifests below it, one a line. */
function keptLines(plan: DeletePlan): string[] {
  if (!plan.kept) return [];
  const indexes = plan.kept.filter((m) => isIndexType(m.mediaType)).length;
  const images = plan.kept.length - indexes;
  return [
    `Not deleted: the ${count(plan.kept.length, 'manifest')} below this index (${count(indexes, 'index', 'indexes')}, ${count(images, 'image')}); other images may list ${plan.kept.length === 1 ? 'it' : 'them'} too:`,
    ...plan.kept.map((m) => {
      const what = isIndexType(m.mediaType) ? 'index' : (m.platform ?? 'image');
      const tags =
        m.tags.length > 0
          ? ` (${m.tags.length === 1 ? 'tag' : 'tags'}: ${m.tags.join(', ')})`
          : ' (untagged)';
      return `  ${m.digest} ${what}${tags}`;
    }),
    "Untagged ones stay until the registry's garbage collection removes what nothing references.",
  ];
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
