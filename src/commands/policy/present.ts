// How policies and rules look on a terminal and in a pipe (JSON is printed as the API returned it).
// Shared by the policy and rule verbs.
import type { GovPolicy, GovRule } from '../../api/governance.js';
import { MAX_RULES } from '../../api/limits.js';
import type { Context } from '../../context.js';
import {
  domainOfAction,
  isHttpRule,
  policyDomain,
  policyType,
  resourceTexts,
  rulesOf,
  type Scope,
} from '../../policy/index.js';

export const PROPAGATION_NOTE = 'The change takes up to five minutes to reach developer machines.';

/** After every successful write: on stderr, never in --json mode (decisions §3). */
export function notePropagation(ctx: Context): void {
  ctx.output.info(PROPAGATION_NOTE);
}

/** What a UUID is shown as when the organization has no such team (any more). */
export const NOT_A_TEAM = '(not a team of the org)';

/**
 * UUID → team name for the teams in these scopes, read once per run and only when a scope names a
 * team. When the names cannot be read (no permission to list teams), the UUIDs are shown as they are.
 */
export async function teamNamesFor(
  ctx: Context,
  scopes: readonly (Scope | undefined)[],
): Promise<Map<string, string> | undefined> {
  if (!scopes.some((s) => (s?.teams?.length ?? 0) > 0)) return new Map();
  try {
    return await (await ctx.teams()).names();
  } catch (err) {
    ctx.output.warn(`Team names could not be read, so teams are shown by UUID: ${(err as Error).message}`);
    return undefined;
  }
}

/** A team for people: its name; a UUID that is no team of the organization says so. */
export function teamLabel(uuid: string, names: Map<string, string> | undefined): string {
  if (names === undefined) return uuid;
  return names.get(uuid.toLowerCase()) ?? `${uuid} ${NOT_A_TEAM}`;
}

/** `org-wide`, or `teams developers, ops` (names where they can be read). */
export function scopeDetail(scope: Scope | undefined, names?: Map<string, string>): string {
  const teams = scope?.teams ?? [];
  return teams.length === 0 ? 'org-wide' : `teams ${teams.map((t) => teamLabel(t, names)).join(', ')}`;
}

const RULE_FIELDS = new Set(['id', 'name', 'actions', 'decision', 'resources', 'http_resources']);

/** Fields of a rule that hubctl does not know (`http_resources`), as `key=value` text. */
function extraText(rule: GovRule): string {
  return Object.entries(rule)
    .filter(([k]) => !RULE_FIELDS.has(k))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

function list(v: unknown): string {
  return Array.isArray(v) ? v.join(',') : v === undefined || v === null ? '' : String(v);
}

/** The policy's own fields. */
export async function showPolicyFields(ctx: Context, policy: GovPolicy): Promise<void> {
  const type = policyType(policy);
  const names = await teamNamesFor(ctx, [policy.scope]);
  const pairs: [string, string][] = [
    ['ID', policy.id],
    ['Name', policy.name],
    ['Org', policy.org],
    ['Scope', scopeDetail(policy.scope, names)],
    ['Type', type],
  ];
  if (type === 'allowlist_v0') {
    pairs.push(['Domain', policyDomain(policy) ?? 'none (no rules yet)']);
    pairs.push(['Rules', String(rulesOf(policy).length)]);
  }
  pairs.push(
    ['Created', ctx.output.time(policy.created_at)],
    ['Updated', ctx.output.time(policy.updated_at)],
  );
  await ctx.output.fields(pairs);
}

/** The rules as a table: ID, NAME, DECISION, ACTIONS, RESOURCES (+ OTHER for fields of newer APIs). */
export async function showRulesTable(ctx: Context, rules: GovRule[]): Promise<void> {
  const extras = rules.map(extraText);
  const withOther = extras.some((e) => e !== '');
  await ctx.output.table(
    ['ID', 'NAME', 'DECISION', 'ACTIONS', 'RESOURCES', ...(withOther ? ['OTHER'] : [])],
    rules.map((r, i) => [
      r.id,
      r.name,
      r.decision,
      list(r.actions),
      resourceTexts(r).join(','),
      ...(withOther ? [extras[i]] : []),
    ]),
  );
  const unknown = [
    ...new Set(
      rules.flatMap((r) => (Array.isArray(r.actions) ? r.actions : [])).filter((a) => !domainOfAction(a)),
    ),
  ];
  if (unknown.length > 0) {
    ctx.output.warn(
      `Note: action${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not known to hubctl; such rules are shown as the API returned them.`,
    );
  }
}

/** A policy, then its rules (or why there are none to show). */
export async function showPolicy(ctx: Context, policy: GovPolicy): Promise<void> {
  await showPolicyFields(ctx, policy);
  const type = policyType(policy);
  const cedar = policy.cedar_v1;
  if (type === 'cedar_v1' && cedar && typeof cedar.text === 'string') {
    if (typeof cedar.schema_url === 'string') await ctx.output.fields([['Schema', cedar.schema_url]]);
    ctx.output.line();
    // The Cedar text as written, line by line (the output layer escapes control characters).
    for (const line of cedar.text.replace(/\n$/, '').split('\n')) ctx.output.line(line);
    return;
  }
  if (type !== 'allowlist_v0') {
    ctx.output.info(
      `Its rule set is ${type}, which hubctl does not show as a table; \`hubctl policy get ${policy.id} --json\` prints it.`,
    );
    return;
  }
  const rules = rulesOf(policy);
  if (rules.length === 0) {
    ctx.output.info(`No rules yet: add one with \`hubctl rule add ${policy.name} …\`.`);
    return;
  }
  ctx.output.line();
  await showRulesTable(ctx, rules);
  if (rules.length >= MAX_RULES) {
    ctx.output.warn(`This policy has ${rules.length} rules, the maximum: no rule can be added.`);
  }
}

/** One rule's fields. */
export async function showRule(ctx: Context, rule: GovRule): Promise<void> {
  const pairs: [string, string][] = [
    ['ID', rule.id],
    ['Name', rule.name],
    ['Decision', String(rule.decision)],
    ['Actions', list(rule.actions)],
    [isHttpRule(rule) ? 'HTTP resources' : 'Resources', resourceTexts(rule).join(',')],
  ];
  const other = extraText(rule);
  if (other) pairs.push(['Other', other]);
  await ctx.output.fields(pairs);
}
