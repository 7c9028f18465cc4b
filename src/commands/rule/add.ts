import type { Command } from 'commander';
import { MAX_RULES } from '../../api/limits.js';
import type { Context } from '../../context.js';
import { ConflictError, UsageError } from '../../errors.js';
import {
  type Decision,
  type HttpResource,
  parseHttpResourceText,
  policyDomain,
  rulesOf,
  validateRule,
} from '../../policy/index.js';
import { type CommandHost, collectList, examples } from '../host.js';
import { notePropagation, showRule } from '../policy/present.js';
import { fetchPolicy, requireAllowlist } from '../policy/resolve.js';
import type { RuleFlags } from './values.js';

export interface AddOptions {
  /** An id (`pol_…`) or a name. */
  policy: string;
  name: string;
  actions: string[];
  decision: Decision;
  resources?: string[];
  /** For an HTTP rule (request:* actions), in place of `resources`. */
  http_resources?: HttpResource[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('add')
    .description('Add a rule to a policy (checked locally before anything is sent)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--name <name>', 'rule name')
    .option(
      '--action <action>',
      'connect:tcp, connect:udp, request:get … request:trace (network) or read, write (filesystem); repeatable or comma-separated',
      collectList,
    )
    .option(
      '--resource <resource>',
      'host, *.host, **.host, host:port, CIDR (network) or a path with * and ** (filesystem); repeatable or comma-separated',
      collectList,
    )
    .option(
      '--http-resource <host/path>',
      'for request:* actions: host[:port]/path, * one segment, ** any depth (api.github.com/repos/**); repeatable',
      collectList,
    )
    .option('--decision <decision>', 'allow or deny')
    .action((policy: string, o: RuleFlags) => {
      const missing = [
        o.name === undefined && '--name',
        o.action === undefined && '--action',
        o.resource === undefined && o.httpResource === undefined && '--resource (or --http-resource)',
        o.decision === undefined && '--decision',
      ].filter(Boolean);
      if (missing.length > 0) throw new UsageError(`rule add needs ${missing.join(', ')}`);
      if (o.name?.trim() === '') throw new UsageError('--name must not be empty');
      // The whole rule, checked before any request: actions, one domain, decision, resources.
      const rule = validateRule({
        name: o.name,
        actions: o.action,
        decision: o.decision,
        resources: o.resource,
        http_resources: o.httpResource?.map(parseHttpResourceText),
      });
      const opts: AddOptions = { policy, name: rule.name, actions: rule.actions, decision: rule.decision };
      if (rule.resources) opts.resources = rule.resources;
      if (rule.http_resources) opts.http_resources = rule.http_resources;
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl rule add egress --name github --action connect:tcp --resource github.com:443,**.github.com --decision allow',
    'hubctl rule add egress --name no-metadata --action connect:tcp,connect:udp --resource 169.254.169.254/32 --decision deny',
    "hubctl rule add workspace --name data --action read --action write --resource '/data/**' --decision allow",
    "hubctl rule add egress --name gh-read --action request:get,request:head --http-resource 'api.github.com/repos/**' --decision allow",
  ]);
}

export async function run(ctx: Context, opts: AddOptions): Promise<void> {
  const client = await ctx.governance();
  const { policy } = await fetchPolicy(client, opts.policy);
  requireAllowlist(policy);
  const rules = rulesOf(policy);
  // The rule's domain must be the policy's when it has rules (interface.md, CreateRule).
  const rule = validateRule(opts, { policyDomain: rules.length > 0 ? policyDomain(policy) : undefined });
  if (rules.length >= MAX_RULES) {
    throw new ConflictError(
      `policy "${policy.name}" (${policy.id}) already has ${rules.length} rules, the maximum (${MAX_RULES})`,
      { hint: 'Delete a rule first, or put the rule in another policy.' },
    );
  }
  const created = await client.createRule(policy.id, {
    name: rule.name,
    actions: rule.actions,
    decision: rule.decision,
    ...(rule.http_resources ? { http_resources: rule.http_resources } : { resources: rule.resources }),
  });
  if (ctx.output.json) {
    ctx.output.printJson(created);
    return;
  }
  await showRule(ctx, created);
  ctx.output.info(`Added rule "${created.name}" (${created.id}) to policy "${policy.name}" (${policy.id}).`);
  if (rules.some((r) => r.name === created.name)) {
    ctx.output.warn(`The policy has another rule named "${created.name}": name these rules by their ids.`);
  }
  notePropagation(ctx);
}
