// `hubctl policy export [POLICY…] [--all] [-o DIR] [--format yaml|json]`: the organization's
// policies in the authoring form (name, scope, rules without ids, or the Cedar text), sorted, with a
// comment header in YAML. What it writes, `policy apply` reads back as "no change".
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { isTeamUuid } from '../../api/teams.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeFileAtomic } from '../../files/atomic.js';
import {
  type AuthoredPolicy,
  authoredValue,
  liveFromDoc,
  policyDocFromApi,
  type Scope,
} from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';
import { fetchLive } from './as-code.js';
import { teamNamesFor } from './present.js';
import { fetchPolicy } from './resolve.js';

export interface ExportOptions {
  policies: string[];
  all: boolean;
  /** A directory: one file per policy. Absent: standard output. */
  outDir?: string;
  format: 'yaml' | 'json';
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('export')
    .description('Write policies in the authoring form that policy diff and apply read')
    .argument('[policy...]', 'policies by id (pol_…) or name')
    .option('--all', 'every policy of the organization')
    .option('-o, --output-dir <dir>', 'write one file per policy into this directory')
    .option('--format <format>', 'yaml or json (default yaml)')
    .action((policies: string[], o: { all?: boolean; outputDir?: string; format?: string }) => {
      if (policies.length === 0 && !o.all) throw new UsageError('name the policies to export, or give --all');
      if (policies.length > 0 && o.all) throw new UsageError('give policy names or --all, not both');
      const format = o.format ?? 'yaml';
      if (format !== 'yaml' && format !== 'json')
        throw new UsageError(`--format is yaml or json, not "${format}"`);
      const opts: ExportOptions = { policies, all: Boolean(o.all), format };
      if (o.outputDir !== undefined) opts.outDir = o.outputDir;
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl policy export --all -o policies/',
    'hubctl policy export egress --format json',
  ]);
}

/** A file name for a policy: lower case letters, digits, `.`, `_` and `-`. */
function fileStem(name: string): string {
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '');
  return stem === '' ? 'policy' : stem.slice(0, 80);
}

async function render(policies: AuthoredPolicy[], format: 'yaml' | 'json', org: string): Promise<string> {
  const values = policies.map(authoredValue);
  if (format === 'json') return `${JSON.stringify(values.length === 1 ? values[0] : values, null, 2)}\n`;
  const YAML = await import('yaml');
  return values
    .map(
      (v) =>
        `# Policy ${JSON.stringify(v.name)} of org ${org}, exported by hubctl.\n` +
        '# Edit, then: hubctl policy diff -f <file>  and  hubctl policy apply -f <file>\n' +
        YAML.stringify(v, { lineWidth: 0 }),
    )
    .join('---\n');
}

/**
 * The scopes with team names in place of UUIDs, so that files can be reviewed; `policy apply` reads
 * the names back to the same UUIDs. A UUID stays where a name would not lead back to it: a team the
 * organization no longer has (said on stderr), a name two teams share, or a name that reads as a UUID.
 */
async function namedScopes(ctx: Context, policies: AuthoredPolicy[]): Promise<Scope[]> {
  const names = await teamNamesFor(
    ctx,
    policies.map((p) => p.scope),
  );
  if (names === undefined) return policies.map((p) => p.scope);
  const uses = new Map<string, number>();
  for (const name of names.values()) uses.set(name, (uses.get(name) ?? 0) + 1);
  return policies.map((p) => {
    const teams = p.scope.teams ?? [];
    if (teams.length === 0) return p.scope;
    const shownTeams = teams.map((uuid) => {
      const name = names.get(uuid.toLowerCase());
      if (name === undefined) {
        ctx.output.warn(
          `Policy ${JSON.stringify(p.name)}: team ${uuid} is not a team of the organization any more; it is written as its UUID.`,
        );
        return uuid;
      }
      return uses.get(name) === 1 && !isTeamUuid(name) ? name : uuid;
    });
    return { teams: shownTeams.sort() };
  });
}

export async function run(ctx: Context, opts: ExportOptions): Promise<void> {
  const client = await ctx.governance();
  let policies: AuthoredPolicy[];
  if (opts.all) policies = await fetchLive(client, 4);
  else {
    policies = [];
    for (const ref of opts.policies) {
      const { policy } = await fetchPolicy(client, ref);
      policies.push(liveFromDoc({ ...policyDocFromApi(policy), id: policy.id }));
    }
  }
  const scopes = await namedScopes(ctx, policies);
  const clean = policies.map((p, i) => ({
    name: p.name,
    scope: scopes[i]!,
    source: p.source,
    ...(p.cedar_v1 ? { cedar_v1: p.cedar_v1 } : { rules: p.rules }),
  }));
  if (opts.outDir === undefined) {
    // The document as written (line() would escape its line breaks); on a terminal, verbatim()
    // still escapes every other control character.
    ctx.output.verbatim(await render(clean, opts.format, client.org));
    return;
  }
  await mkdir(opts.outDir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot create ${opts.outDir}: ${err.code ?? String(err)}`);
  });
  const used = new Set<string>();
  const written: string[] = [];
  for (const p of clean) {
    let stem = fileStem(p.name);
    for (let n = 2; used.has(stem); n++) stem = `${fileStem(p.name)}-${n}`;
    used.add(stem);
    const file = join(opts.outDir, `${stem}.${opts.format}`);
    await writeFileAtomic(file, await render([p], opts.format, client.org));
    written.push(file);
  }
  if (ctx.output.json) ctx.output.printJson({ files: written });
  else
    ctx.output.info(`Wrote ${written.length} polic${written.length === 1 ? 'y' : 'ies'} to ${opts.outDir}.`);
}
