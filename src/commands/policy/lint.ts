// `hubctl policy lint`: warnings about rules that bite (decisions §4 traps), over files or live
// policies evaluated together; Cedar (cedar_v1) policies too, with their lines (the Cedar engine
// loads only when there is one). Exit 0 clean, 1 warnings, 2 invalid.
import type { Command } from 'commander';
import { isTeamUuid } from '../../api/teams.js';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { lintCedar, lintPolicies, loadCedar, type PolicyDoc } from '../../policy/index.js';
import { type CommandHost, collectRepeat, examples } from '../host.js';
import { cedarSources } from './cedar-sources.js';
import { loadPolicies, type PolicyTexts } from './sources.js';

export interface LintOptions {
  files: string[];
  /** Live policies by id or name. */
  policies: string[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('lint')
    .description('Warn about rules that do not do what they seem to (exit 1 on warnings)')
    .argument('[policy...]', 'live policies, by id (pol_…) or name')
    .option(
      '-f, --file <path>',
      'policy file, YAML or JSON, or a Cedar text (.cedar) (repeatable)',
      collectRepeat,
    )
    .action((policies: string[], raw: { file?: string[] }) => {
      const opts: LintOptions = { files: raw.file ?? [], policies };
      if (opts.files.length === 0 && opts.policies.length === 0) {
        throw new UsageError('name a policy file with --file, or a policy by id or name');
      }
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl policy lint -f examples/network.yaml',
    'hubctl policy lint egress --json',
    'hubctl policy lint -f mcp.cedar',
  ]);
}

export async function run(ctx: Context, opts: LintOptions): Promise<number> {
  const texts: PolicyTexts = new Map();
  const policies = await loadPolicies(
    ctx,
    {
      files: opts.files,
      policies: opts.policies,
      teams: [],
      live: false,
    },
    texts,
  );
  // rules and policies hubctl cannot evaluate are warnings too (NOT_EVALUATED)
  const warnings: { code: string; message: string; policy?: string }[] = lintPolicies(
    policies.filter((p) => p.type !== 'cedar_v1'),
  );
  const cedar = cedarSources(policies, texts);
  if (cedar.length > 0) warnings.push(...lintCedar(await loadCedar(), cedar));
  warnings.push(...(await checkTeamNames(ctx, policies)));
  if (ctx.output.json) {
    ctx.output.printJson({ warnings });
  } else {
    for (const w of warnings)
      ctx.output.line([await ctx.output.style('warning', 'yellow'), `: ${w.message} [${w.code}]`]);
    const rules = policies.reduce((n, p) => n + p.rules.length, 0);
    const summary = `${policies.length} polic${policies.length === 1 ? 'y' : 'ies'}, ${rules} rule${rules === 1 ? '' : 's'}`;
    ctx.output.info(
      warnings.length === 0
        ? `no problems found (${summary})`
        : `${warnings.length} warning${warnings.length === 1 ? '' : 's'} (${summary})`,
    );
  }
  return warnings.length === 0 ? ExitCode.OK : ExitCode.ERROR;
}

/**
 * Team names in the files' scopes are checked against the organization when hubctl can reach it
 * (`--org` and a login); offline it says they were not checked rather than guess.
 */
async function checkTeamNames(
  ctx: Context,
  policies: PolicyDoc[],
): Promise<{ code: string; policy: string; message: string }[]> {
  const named = policies.flatMap((p) =>
    (p.scope.teams ?? []).filter((t) => !isTeamUuid(t)).map((team) => ({ p, team })),
  );
  if (named.length === 0) return [];
  let directory: Awaited<ReturnType<Context['teams']>>;
  try {
    directory = await ctx.teams();
    await directory.teams();
  } catch (err) {
    ctx.output.info(
      `${named.length} team name${named.length === 1 ? ' was' : 's were'} not checked: resolving a team name needs the organization (--org and a login): ${(err as Error).message}`,
    );
    return [];
  }
  const out: { code: string; policy: string; message: string }[] = [];
  for (const { p, team } of named) {
    try {
      await directory.resolve([team], `${p.source}: policy ${JSON.stringify(p.name)} scope.teams`);
    } catch (err) {
      out.push({ code: 'UNKNOWN_TEAM', policy: p.name, message: (err as Error).message });
    }
  }
  return out;
}
