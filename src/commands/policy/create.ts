import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type CedarV1, MCP_SCHEMA_URL } from '../../policy/index.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { refuseUnsendableCedar } from './cedar-check.js';
import { notePropagation, showPolicyFields } from './present.js';
import { checkPolicyName, checkTeams } from './resolve.js';
import { readPolicyText } from './sources.js';

export interface CreateOptions {
  name: string;
  /** Team names or UUIDs; empty means org-wide. */
  teams: string[];
  /** A Cedar policy (`cedar_v1`) instead of an allowlist: the file its text is read from. */
  cedarFile?: string;
  schemaUrl?: string;
}

/** A Cedar text file's size limit: far over any policy the service holds. */
const MAX_CEDAR_BYTES = 1024 * 1024;

/** The `cedar_v1` of --cedar FILE and --schema-url (default: the MCP schema), with the file's text. */
export function readCedarOption(
  file: string,
  schemaUrl: string | undefined,
): { cedar: CedarV1; text: string } {
  const text = readPolicyText(file, MAX_CEDAR_BYTES);
  if (Buffer.byteLength(text) > MAX_CEDAR_BYTES) {
    throw new UsageError(
      `${file} is larger than ${MAX_CEDAR_BYTES / 1024} KB; a Cedar policy is far smaller`,
    );
  }
  return { cedar: { text, schema_url: schemaUrl ?? MCP_SCHEMA_URL }, text };
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('create')
    .description('Create a policy (org-wide, or for the teams given); add rules with `hubctl rule add`')
    .argument('<name>', 'policy name, unique in the organization')
    .option(
      '--team <team>',
      'apply only to this team, by name or UUID (repeatable, or comma-separated)',
      collectList,
      [],
    )
    .option(
      '--cedar <file>',
      'make a Cedar (cedar_v1, MCP) policy with the text of this file, checked before it is sent',
    )
    .option('--schema-url <url>', 'with --cedar: the schema it is written against (default: the MCP schema)')
    .action((name: string, o: { team: string[]; cedar?: string; schemaUrl?: string }) => {
      if (o.schemaUrl !== undefined && o.cedar === undefined)
        throw new UsageError('--schema-url goes with --cedar');
      const opts: CreateOptions = { name: checkPolicyName(name), teams: checkTeams(o.team) };
      if (o.cedar !== undefined) opts.cedarFile = o.cedar;
      if (o.schemaUrl !== undefined) opts.schemaUrl = o.schemaUrl;
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl policy create egress',
    'hubctl policy create build-cache --team developers',
    'ID=$(hubctl policy create egress --json | jq -r .id)',
    'hubctl policy create mcp-tools --cedar mcp.cedar',
  ]);
}

export async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  let cedar: CedarV1 | undefined;
  if (opts.cedarFile !== undefined) {
    const read = readCedarOption(opts.cedarFile, opts.schemaUrl);
    cedar = read.cedar;
    await refuseUnsendableCedar(
      [{ name: opts.name, source: opts.cedarFile, cedar_v1: cedar }],
      new Map([[opts.cedarFile, read.text]]),
    );
  }
  const client = await ctx.governance();
  const teams = opts.teams.length > 0 ? await (await ctx.teams()).resolve(opts.teams) : [];
  const policy = await client.createPolicy({
    name: opts.name,
    ...(teams.length > 0 ? { scope: { teams } } : {}),
    ...(cedar ? { cedar_v1: cedar } : {}),
  });
  if (ctx.output.json) {
    ctx.output.printJson(policy);
    return;
  }
  await showPolicyFields(ctx, policy);
  ctx.output.info(`Created policy "${policy.name}" (${policy.id}) in org ${client.org}.`);
  notePropagation(ctx);
}
