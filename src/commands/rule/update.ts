import type { Command } from 'commander';
import type { UpdateRuleBody } from '../../api/governance.js';
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import {
  type Decision,
  type Domain,
  domainOfAction,
  domainOfActions,
  type HttpResource,
  isHttpActionList,
  isHttpRule,
  parseHttpResourceText,
  policyDomain,
  rulesOf,
  validateRule,
} from '../../policy/index.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { notePropagation, showRule } from '../policy/present.js';
import { fetchPolicy, requireAllowlist, resolveRule } from '../policy/resolve.js';
import { checkRuleParts, type RuleFlags } from './values.js';

export interface UpdateOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
  /** An id (`rule_…`) or a rule name within the policy. */
  rule: string;
  name?: string;
  actions?: string[];
  decision?: Decision;
  resources?: string[];
  /** Replaces the HTTP resources; with request:* actions, turns a rule into an HTTP rule. */
  http_resources?: HttpResource[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('update')
    .description('Change a rule in place (only the fields given change; its domain stays)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .argument('<rule>', 'rule id (rule_…) or name within the policy')
    .option('--name <name>', 'new rule name')
    .option('--action <action>', 'replace the actions (repeatable or comma-separated)', collectList)
    .option('--resource <resource>', 'replace the resources (repeatable or comma-separated)', collectList)
    .option(
      '--http-resource <host/path>',
      'replace the HTTP resources: host[:port]/path (repeatable); with request:* actions',
      collectList,
    )
    .option('--decision <decision>', 'allow or deny')
    .action((policy: string, rule: string, o: RuleFlags) => {
      if ([o.name, o.action, o.resource, o.httpResource, o.decision].every((v) => v === undefined)) {
        throw new UsageError(
          'nothing to change: give --name, --action, --resource, --http-resource or --decision',
        );
      }
      if (o.resource !== undefined && o.httpResource !== undefined) {
        throw new UsageError(
          'give --resource or --http-resource, not both: a rule has one kind of resources',
        );
      }
      const parts = checkRuleParts({
        name: o.name,
        actions: o.action,
        decision: o.decision,
        resources: o.resource,
      });
      const opts: UpdateOptions = { policy, rule };
      if (parts.name !== undefined) opts.name = parts.name;
      if (parts.actions !== undefined) opts.actions = parts.actions;
      if (parts.decision !== undefined) opts.decision = parts.decision;
      if (parts.resources !== undefined) opts.resources = parts.resources;
      if (o.httpResource !== undefined) opts.http_resources = o.httpResource.map(parseHttpResourceText);
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl rule update egress github --resource github.com:443,api.github.com:443',
    'hubctl rule update egress rule_8a1f --decision deny',
    "hubctl rule update workspace data --action read --resource '/data/**,~/cache/*'",
    "hubctl rule update egress github --action request:get --http-resource 'api.github.com/repos/**'",
  ]);
}

function firstKnownDomain(actions: unknown): Domain | undefined {
  for (const a of Array.isArray(actions) ? actions : []) {
    const d = typeof a === 'string' ? domainOfAction(a) : undefined;
    if (d) return d;
  }
  return undefined;
}

export async function run(ctx: Context, opts: UpdateOptions): Promise<void> {
  const client = await ctx.governance();
  const { policy } = await fetchPolicy(client, opts.policy);
  requireAllowlist(policy);
  const rule = resolveRule(policy, opts.rule);
  const label = `rule "${rule.name}" (${rule.id})`;

  let switches = false;
  if (opts.actions !== undefined || opts.resources !== undefined || opts.http_resources !== undefined) {
    // The rule as it would become is checked as a whole, with the same parser as `policy eval`.
    const actions = opts.actions ?? rule.actions;
    let domain: Domain;
    try {
      domain = domainOfActions(actions);
    } catch (err) {
      if (err instanceof ValidationError && opts.actions === undefined) {
        throw new ValidationError(`${label} has actions hubctl cannot check (${err.message})`, {
          hint: 'Give --action as well to change its resources.',
        });
      }
      throw err;
    }
    const oldDomain = firstKnownDomain(rule.actions);
    if (oldDomain && domain !== oldDomain) {
      throw new ValidationError(
        `${label} is a ${oldDomain} rule; its actions cannot change to ${domain} actions (${actions.join(', ')})`,
        { hint: `Delete it and add a ${domain} rule to a ${domain} policy instead.` },
      );
    }
    const others = rulesOf(policy).filter((r) => r.id !== rule.id);
    // Switching between resources and http_resources needs the new list; the old one is dropped.
    const wasHttp = isHttpRule(rule);
    switches = isHttpActionList(actions) !== wasHttp;
    const keep = !switches;
    try {
      validateRule(
        {
          name: opts.name ?? rule.name,
          actions,
          decision: opts.decision ?? rule.decision,
          resources: opts.resources ?? (keep && !wasHttp ? rule.resources : undefined),
          http_resources: opts.http_resources ?? (keep && wasHttp ? rule.http_resources : undefined),
        },
        { policyDomain: policyDomain({ allowlist_v0: { rules: others } }) },
      );
    } catch (err) {
      if (err instanceof ValidationError && switches) {
        throw new ValidationError(`${label}: ${err.message}`, {
          hint: wasHttp
            ? 'Give --resource with the new actions to turn it into a connection rule.'
            : 'Give --http-resource with the request:* actions to turn it into an HTTP rule.',
        });
      }
      throw err;
    }
  }

  const body: UpdateRuleBody = {};
  if (opts.name !== undefined) body.name = opts.name;
  if (opts.actions !== undefined) body.actions = opts.actions;
  if (opts.decision !== undefined) body.decision = opts.decision;
  // One update switches kinds with the new list alone: the API refuses the other form's field,
  // even as null ("HTTP rules must not supply resources"), and drops the old list itself.
  if (opts.resources !== undefined) body.resources = opts.resources;
  if (opts.http_resources !== undefined) body.http_resources = opts.http_resources;
  const result = await client.updateRule(policy.id, rule.id, body);
  if (ctx.output.json) {
    ctx.output.printJson(result);
    return;
  }
  await showRule(ctx, result.new);
  ctx.output.info(`Updated ${label} of policy "${policy.name}" (${policy.id}).`);
  notePropagation(ctx);
}
