// `<policy>` and `<rule>` arguments: an id (`pol_…`, `rule_…`) or a name (decisions §3). A name is
// looked up (policies through the list, rules within their policy): exact matches first, then
// case-insensitive ones; none is exit 5, several is exit 2 with the candidates listed.
import type { GovernanceClient, GovPolicy, GovPolicySummary, GovRule } from '../../api/governance.js';
import type { Context } from '../../context.js';
import { NotFoundError, UsageError, ValidationError } from '../../errors.js';
import { policyType, rulesOf } from '../../policy/index.js';
import { confirmDestructive } from '../host.js';

export const POLICY_ID = /^pol_/;
export const RULE_ID = /^rule_/;

export interface ResolvedPolicy {
  id: string;
  /** The whole list when it was read to find the name (for limit checks). */
  summaries?: GovPolicySummary[];
}

/** The candidates among `items` for `ref` by name: exact matches, else case-insensitive ones. */
export function matchByName<T extends { name: string }>(items: readonly T[], ref: string): T[] {
  const exact = items.filter((i) => i.name === ref);
  if (exact.length > 0) return exact;
  const folded = ref.toLowerCase();
  return items.filter((i) => typeof i.name === 'string' && i.name.toLowerCase() === folded);
}

function ambiguous(kind: string, ref: string, where: string, candidates: { id: string; name: string }[]) {
  return new UsageError(
    `${candidates.length} ${kind === 'policy' ? 'policies' : `${kind}s`} ${where} match the name "${ref}": ${candidates
      .map((c) => `${c.id} (${c.name})`)
      .join(', ')}`,
    { hint: `Name the ${kind} by its id instead.` },
  );
}

/** A policy id, from an id as given or a name looked up in the list. */
export async function resolvePolicy(client: GovernanceClient, ref: string): Promise<ResolvedPolicy> {
  if (POLICY_ID.test(ref)) return { id: ref };
  const summaries = await client.allPolicies();
  const found = matchByName(summaries, ref);
  if (found.length === 0) {
    throw new NotFoundError(`no policy named "${ref}" in org ${client.org}`, {
      hint: 'Run `hubctl policy list` to see the policies.',
    });
  }
  if (found.length > 1) throw ambiguous('policy', ref, `of org ${client.org}`, found);
  return { id: found[0]!.id, summaries };
}

/** The full policy (with its rules) named by id or name. */
export async function fetchPolicy(
  client: GovernanceClient,
  ref: string,
): Promise<{ policy: GovPolicy; summaries?: GovPolicySummary[] }> {
  const { id, summaries } = await resolvePolicy(client, ref);
  return { policy: await client.getPolicy(id), summaries };
}

/** Refuses rule commands on a policy whose rule set is not an allowlist (`cedar_v1`). */
export function requireAllowlist(policy: GovPolicy): void {
  const type = policyType(policy);
  if (type !== 'allowlist_v0') {
    throw new ValidationError(
      `policy "${policy.name}" (${policy.id}) is a ${type} policy; hubctl manages rules of allowlist_v0 policies only`,
      { hint: `Use \`hubctl policy get ${policy.id} --json\` to see its rule set as the API returns it.` },
    );
  }
}

/** A rule of `policy`, by id or by name. */
export function resolveRule(policy: GovPolicy, ref: string): GovRule {
  const rules = rulesOf(policy);
  if (RULE_ID.test(ref)) {
    const rule = rules.find((r) => r.id === ref);
    if (!rule) throw new NotFoundError(`rule ${ref} was not found in policy "${policy.name}" (${policy.id})`);
    return rule;
  }
  const found = matchByName(rules, ref);
  if (found.length === 0) {
    throw new NotFoundError(`no rule named "${ref}" in policy "${policy.name}" (${policy.id})`, {
      hint: `Run \`hubctl rule list ${policy.id}\` to see its rules.`,
    });
  }
  if (found.length > 1) throw ambiguous('rule', ref, `of policy "${policy.name}"`, found);
  return found[0]!;
}

/**
 * `--team` values as given: team names or UUIDs (a name is resolved through the organization's
 * teams when the command runs, before any write), duplicates dropped.
 */
export function checkTeams(teams: string[]): string[] {
  for (const t of teams) {
    if (t.length > 256 || /[\u0000-\u001f\u007f]/.test(t)) {
      throw new UsageError(`--team takes a team name or UUID, not ${JSON.stringify(t.slice(0, 80))}`);
    }
  }
  return [...new Set(teams)];
}

/** A policy name as given: not empty, not blank. */
export function checkPolicyName(name: string, flag = 'the policy name'): string {
  if (name.trim() === '') throw new UsageError(`${flag} must not be empty`);
  return name;
}

/**
 * Confirmation of a delete in two steps: refuse at once (before any request) when there is no
 * terminal and no --yes; otherwise return the question to ask once the target is known.
 */
export async function confirmFirst(
  ctx: Context,
  yes: boolean,
): Promise<(question: string) => Promise<boolean>> {
  if (yes || ctx.globals.yes) return async () => true;
  // Throws the usage error (exit 2) when the question cannot be asked.
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) await confirmDestructive(ctx, '');
  return (question) => confirmDestructive(ctx, question);
}
