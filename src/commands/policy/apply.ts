// `hubctl policy apply -f FILE|DIR`: makes the organization match the files. The whole plan is
// checked before the first write; writes go in the plan's safe order, a phase at a time with at
// most --concurrency in flight; it asks before deleting; it stops at the first failure and says
// what was and was not applied. A second apply of the same files sends no write.
import type { Command } from 'commander';
import type { CreateRuleBody, GovernanceClient, UpdateRuleBody } from '../../api/governance.js';
import type { Context } from '../../context.js';
import { CancelledError, ExitCode, exitCodeFor, HubctlError } from '../../errors.js';
import { type AuthoredRule, type Plan, phasesOf, planChanges, type Step } from '../../policy/index.js';
import { runPool } from '../../pool.js';
import { type CommandHost, collectRepeat, examples, positiveInt } from '../host.js';
import { fetchLive, readAuthored, resolveScopes, shown } from './as-code.js';
import { refuseUnsendableCedar } from './cedar-check.js';
import { planJson, showPlan, stepSummary } from './plan-view.js';
import { notePropagation } from './present.js';
import { confirmFirst } from './resolve.js';

export interface ApplyOptions {
  files: string[];
  dryRun: boolean;
  prune: boolean;
  yes: boolean;
  concurrency: number;
}

export const DEFAULT_CONCURRENCY = 4;

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('apply')
    .description('Make the organization match the policy files (asks before deleting)')
    .option('-f, --file <path>', 'policy file or directory of them (repeatable)', collectRepeat)
    .option('--dry-run', 'check everything and print the plan; write nothing')
    .option('--prune', 'delete policies that no file holds')
    .option('-y, --yes', 'do not ask before deleting')
    .option(
      '--concurrency <n>',
      `writes in flight at once (default ${DEFAULT_CONCURRENCY})`,
      positiveInt('--concurrency'),
    )
    .action(
      (o: { file?: string[]; dryRun?: boolean; prune?: boolean; yes?: boolean; concurrency?: number }) =>
        host.run((ctx) =>
          runner(ctx, {
            files: o.file ?? [],
            dryRun: Boolean(o.dryRun),
            prune: Boolean(o.prune),
            yes: Boolean(o.yes),
            concurrency: o.concurrency ?? DEFAULT_CONCURRENCY,
          }),
        ),
    );
  return examples(cmd, [
    'hubctl policy apply -f policies/ --dry-run',
    'hubctl policy apply -f policies/ --prune --yes --json',
  ]);
}

function ruleBody(r: AuthoredRule): CreateRuleBody {
  const body: CreateRuleBody = { name: r.name, actions: r.actions, decision: r.decision as 'allow' | 'deny' };
  if (r.http_resources) body.http_resources = r.http_resources;
  else body.resources = r.resources ?? [];
  return body;
}

function patchBody(s: Extract<Step, { op: 'change-rule' }>): UpdateRuleBody {
  const body: UpdateRuleBody = {};
  if (s.fields.includes('name')) body.name = s.to.name;
  if (s.fields.includes('actions')) body.actions = s.to.actions;
  if (s.fields.includes('decision')) body.decision = s.to.decision as 'allow' | 'deny';
  // the new form's list alone: the API refuses the other form's field, even as null
  if (s.fields.includes('resources') && s.to.resources) body.resources = s.to.resources;
  if (s.fields.includes('http_resources') && s.to.http_resources) body.http_resources = s.to.http_resources;
  return body;
}

/** One write of the plan. */
async function write(client: GovernanceClient, s: Step, created: Map<string, string>): Promise<void> {
  const policyId = (id: string | undefined) => id ?? created.get(s.policy)!;
  switch (s.op) {
    case 'create-policy': {
      const p = await client.createPolicy({
        name: s.policy,
        scope: { teams: s.scope.teams ?? [] },
        ...(s.cedar_v1 ? { cedar_v1: s.cedar_v1 } : {}),
      });
      created.set(s.policy, p.id);
      return;
    }
    case 'update-policy':
      await client.updatePolicy(s.policyId, {
        ...(s.scope ? { scope: { teams: s.scope.to.teams ?? [] } } : {}),
        ...(s.cedar_v1 ? { cedar_v1: s.cedar_v1.to } : {}),
      });
      return;
    case 'delete-policy':
      await client.deletePolicy(s.policyId);
      return;
    case 'add-rule':
      await client.createRule(policyId(s.policyId), ruleBody(s.rule));
      return;
    case 'change-rule':
      if (s.how === 'replace') await client.createRule(s.policyId, ruleBody(s.to));
      else await client.updateRule(s.policyId, s.ruleId, patchBody(s));
      return;
    case 'remove-rule':
      await client.deleteRule(s.policyId, s.ruleId);
  }
}

/** What the user is asked about: policies deleted, rules removed for good. */
function deletions(plan: Plan): Step[] {
  return plan.steps.filter(
    (s) =>
      s.op === 'delete-policy' ||
      (s.op === 'remove-rule' &&
        s.reason !== 'replaced' &&
        s.reason !== 'scope' &&
        s.reason !== 'policy-deleted'),
  );
}

export async function run(ctx: Context, opts: ApplyOptions): Promise<number> {
  const texts = new Map<string, string>();
  const files = await readAuthored(opts.files, texts);
  // Cedar texts the service would refuse, or that fail the MCP schema: exit 2, nothing sent
  await refuseUnsendableCedar(files, texts);
  const client = await ctx.governance();
  const authored = await resolveScopes(ctx, files);
  const plan = planChanges(authored, await fetchLive(client, opts.concurrency), { prune: opts.prune });
  if (!plan.differs) {
    if (ctx.output.json) ctx.output.printJson({ ...planJson(plan), applied: [], not_applied: [] });
    else await showPlan(ctx, plan);
    return ExitCode.OK;
  }
  if (opts.dryRun) {
    if (ctx.output.json) ctx.output.printJson(planJson(plan));
    else {
      await showPlan(ctx, plan);
      ctx.output.info('Dry run: nothing was written.');
    }
    return ExitCode.OK;
  }
  if (!ctx.output.json) await showPlan(ctx, plan);
  const doomed = deletions(plan);
  if (doomed.length > 0) {
    const confirm = await confirmFirst(ctx, opts.yes);
    const what = `${doomed.length} deletion${doomed.length === 1 ? '' : 's'} (${doomed.map(stepSummary).join('; ')})`;
    if (!(await confirm(`Apply the plan, with ${what}?`))) throw new CancelledError('nothing was written');
  }

  const applied: Step[] = [];
  const created = new Map<string, string>();
  let failure: { step: Step; err: unknown } | undefined;
  for (const phase of phasesOf(plan)) {
    try {
      await runPool(phase, opts.concurrency, async (s) => {
        try {
          await write(client, s, created);
        } catch (err) {
          failure ??= { step: s, err };
          throw err;
        }
        applied.push(s);
      });
    } catch {
      break;
    }
  }
  const done = new Set(applied);
  const notApplied = plan.steps.filter((s) => !done.has(s) && s !== failure?.step);
  if (ctx.output.json) {
    ctx.output.printJson({
      differs: true,
      applied: applied.map(stepSummary),
      ...(failure ? { failed: { step: stepSummary(failure.step), error: errorText(failure.err) } } : {}),
      not_applied: notApplied.map(stepSummary),
    });
  } else if (failure) {
    ctx.output.warn(
      `Applied ${applied.length} of ${plan.steps.length} writes, then failed: ${stepSummary(failure.step)}: ${errorText(failure.err)}`,
    );
    for (const s of notApplied) ctx.output.warn(`  not applied: ${stepSummary(s)}`);
    ctx.output.warn('Fix the cause and run apply again: it carries on from where the organization is now.');
  } else {
    ctx.output.info(`Applied ${applied.length} write${applied.length === 1 ? '' : 's'}.`);
  }
  if (applied.length > 0) notePropagation(ctx);
  return failure ? exitCodeFor(failure.err) : ExitCode.OK;
}

function errorText(err: unknown): string {
  return err instanceof HubctlError ? err.message : shown(String(err));
}
