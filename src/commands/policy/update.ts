import type { Command } from 'commander';
import type { UpdatePolicyBody } from '../../api/governance.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { CedarV1 } from '../../policy/index.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { refuseUnsendableCedar } from './cedar-check.js';
import { readCedarOption } from './create.js';
import { notePropagation, scopeDetail, showPolicyFields, teamNamesFor } from './present.js';
import { checkPolicyName, checkTeams, resolvePolicy } from './resolve.js';

export interface UpdateOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
  /** New name. */
  name?: string;
  /** New team list (names or UUIDs); `[]` makes the policy org-wide. Absent: scope unchanged. */
  teams?: string[];
  /** A Cedar policy's new text: the file it is read from, and its schema URL. */
  cedarFile?: string;
  schemaUrl?: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('update')
    .description("Rename a policy or change its scope (only the fields given change; rules don't)")
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--name <name>', 'new name')
    .option(
      '--team <team>',
      'replace the team list, by name or UUID (repeatable, or comma-separated)',
      collectList,
    )
    .option('--org-wide', 'apply to the whole organization (clears the team list)')
    .option(
      '--cedar <file>',
      "a Cedar (cedar_v1) policy's new text, from this file, checked before it is sent",
    )
    .option('--schema-url <url>', 'with --cedar: the schema it is written against (default: the MCP schema)')
    .action(
      (
        policy: string,
        o: { name?: string; team?: string[]; orgWide?: boolean; cedar?: string; schemaUrl?: string },
      ) => {
        if (o.team !== undefined && o.orgWide) {
          throw new UsageError('--team and --org-wide cannot be used together');
        }
        if (o.name === undefined && o.team === undefined && !o.orgWide && o.cedar === undefined) {
          throw new UsageError('nothing to change: give --name, --team, --org-wide or --cedar');
        }
        if (o.schemaUrl !== undefined && o.cedar === undefined)
          throw new UsageError('--schema-url goes with --cedar');
        const opts: UpdateOptions = { policy };
        if (o.name !== undefined) opts.name = checkPolicyName(o.name, '--name');
        if (o.team !== undefined) {
          opts.teams = checkTeams(o.team);
          if (opts.teams.length === 0)
            throw new UsageError('--team needs a team name or UUID (or use --org-wide)');
        }
        if (o.orgWide) opts.teams = [];
        if (o.cedar !== undefined) opts.cedarFile = o.cedar;
        if (o.schemaUrl !== undefined) opts.schemaUrl = o.schemaUrl;
        return host.run((ctx) => runner(ctx, opts));
      },
    );
  return examples(cmd, [
    'hubctl policy update egress --name egress-prod',
    'hubctl policy update egress --team developers --team ops',
    'hubctl policy update pol_3f2b8c1e --org-wide --json',
    'hubctl policy update mcp-tools --cedar mcp.cedar',
  ]);
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  let cedar: CedarV1 | undefined;
  if (opts.cedarFile !== undefined) {
    const read = readCedarOption(opts.cedarFile, opts.schemaUrl);
    cedar = read.cedar;
    await refuseUnsendableCedar(
      [{ name: opts.name ?? opts.policy, source: opts.cedarFile, cedar_v1: cedar }],
      new Map([[opts.cedarFile, read.text]]),
    );
  }
  const client = await ctx.governance();
  // Names resolve before anything is written: an unknown team changes nothing.
  const teams = opts.teams?.length ? await (await ctx.teams()).resolve(opts.teams) : opts.teams;
  const { id } = await resolvePolicy(client, opts.policy);
  const body: UpdatePolicyBody = {};
  if (opts.name !== undefined) body.name = opts.name;
  if (teams !== undefined) body.scope = { teams };
  if (cedar !== undefined) body.cedar_v1 = cedar;
  const result = await client.updatePolicy(id, body);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  await showPolicyFields(ctx, result.new);
  const changes: string[] = [];
  if (result.old.name !== result.new.name)
    changes.push(`renamed "${result.old.name}" to "${result.new.name}"`);
  const names = await teamNamesFor(ctx, [result.old.scope, result.new.scope]);
  const before = scopeDetail(result.old.scope, names);
  const after = scopeDetail(result.new.scope, names);
  if (opts.teams !== undefined)
    changes.push(before === after ? `scope ${after}` : `scope ${before} → ${after}`);
  if (cedar !== undefined) changes.push('Cedar text replaced');
  ctx.output.info(
    `Updated policy "${result.new.name}" (${result.new.id})${changes.length ? `: ${changes.join('; ')}` : ''}.`,
  );
  notePropagation(ctx);
}
