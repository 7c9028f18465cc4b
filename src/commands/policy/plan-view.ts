// A plan as people read it (`+ ~ -` lines, coloured on a terminal) and as JSON (`--json`).
import type { Context } from '../../context.js';
import type { Style } from '../../output/output.js';
import {
  type AuthoredRule,
  type Plan,
  ruleResourceTexts,
  type Scope,
  type Step,
} from '../../policy/index.js';
import { shown } from './as-code.js';
import { teamLabel, teamNamesFor } from './present.js';

/** `org-wide` or `teams "developers", "ops"`; `names` maps team UUIDs to names (else UUIDs show). */
function scopeWords(scope: Scope, names?: Map<string, string>): string {
  const teams = scope.teams ?? [];
  return teams.length === 0 ? 'org-wide' : `teams ${teams.map((t) => shown(teamLabel(t, names))).join(', ')}`;
}

function ruleWords(r: AuthoredRule): string {
  return `${r.decision} ${r.actions.join(',')} ${ruleResourceTexts(r).map(shown).join(' ')}`;
}

/** The lines of one step; steps that are part of another one's line (a replace's removal) give none. */
function stepLines(s: Step, names?: Map<string, string>): [string, string][] {
  const rule = (name: string) => `  rule ${shown(name)} of policy ${shown(s.policy)}`;
  switch (s.op) {
    case 'create-policy':
      return [['+', `policy ${shown(s.policy)} (${s.cedar_v1 ? 'cedar_v1' : scopeWords(s.scope, names)})`]];
    case 'delete-policy':
      return [
        ['-', `policy ${shown(s.policy)} (${s.policyId}) and its ${s.rules} rule${s.rules === 1 ? '' : 's'}`],
      ];
    case 'update-policy': {
      const out: [string, string][] = [];
      if (s.scope)
        out.push([
          '~',
          `policy ${shown(s.policy)}: scope ${scopeWords(s.scope.from, names)} → ${scopeWords(s.scope.to, names)}`,
        ]);
      if (s.cedar_v1) out.push(['~', `policy ${shown(s.policy)}: Cedar text changes`]);
      return out;
    }
    case 'add-rule':
      if (s.reason === 'scope') return [];
      return [
        [
          '+',
          `${rule(s.rule.name)}: ${ruleWords(s.rule)}${s.renamedFrom ? ` (renamed from ${shown(s.renamedFrom)}: a remove plus an add)` : ''}`,
        ],
      ];
    case 'change-rule':
      return [
        [
          '~',
          `${rule(s.to.name)}: ${s.fields.filter((f, i, a) => a.indexOf(f) === i).join(', ')}: ${ruleWords(s.from)} → ${ruleWords(s.to)}`,
        ],
      ];
    case 'remove-rule':
      if (s.reason === 'replaced' || s.reason === 'scope' || s.reason === 'policy-deleted') return [];
      return [
        [
          '-',
          `${rule(s.rule.name)}: ${ruleWords(s.rule)}${s.renamedTo ? ` (renamed to ${shown(s.renamedTo)}: a remove plus an add)` : ''}${s.reason === 'duplicate' ? ' (a second rule of that name)' : ''}`,
        ],
      ];
  }
}

const COLOUR: Record<string, Style> = { '+': 'green', '~': 'yellow', '-': 'red' };

/** Prints the plan; says so when there is nothing to do. */
export async function showPlan(ctx: Context, plan: Plan): Promise<void> {
  if (plan.unmanaged.length > 0) {
    const n = plan.unmanaged.length;
    ctx.output.info(
      `${n} polic${n === 1 ? 'y' : 'ies'} of the organization in no file, kept (--prune deletes them): ${plan.unmanaged.map(shown).join(', ')}`,
    );
  }
  if (!plan.differs) {
    ctx.output.info('No changes: the organization matches the files.');
    return;
  }
  const names = await teamNamesFor(
    ctx,
    plan.steps.flatMap((s) =>
      s.op === 'create-policy'
        ? [s.scope]
        : s.op === 'update-policy' && s.scope
          ? [s.scope.from, s.scope.to]
          : [],
    ),
  );
  for (const s of plan.steps) {
    for (const [mark, text] of stepLines(s, names))
      ctx.output.line(await ctx.output.style(`${mark} ${text}`, COLOUR[mark]!));
  }
  const count = (mark: string) => plan.steps.flatMap((s) => stepLines(s)).filter(([m]) => m === mark).length;
  ctx.output.info(`Plan: ${count('+')} to add, ${count('~')} to change, ${count('-')} to remove.`);
}

/** The plan as JSON: each step as the plan holds it, in write order. */
export function planJson(plan: Plan): { differs: boolean; steps: Step[]; unmanaged: string[] } {
  return { differs: plan.differs, steps: plan.steps, unmanaged: plan.unmanaged };
}

/** One step in a sentence, for the apply report. */
export function stepSummary(s: Step): string {
  switch (s.op) {
    case 'create-policy':
      return `create policy ${shown(s.policy)}`;
    case 'delete-policy':
      return `delete policy ${shown(s.policy)}`;
    case 'update-policy':
      return `update policy ${shown(s.policy)}`;
    case 'add-rule':
      return `add rule ${shown(s.rule.name)} to policy ${shown(s.policy)}`;
    case 'change-rule':
      return `change rule ${shown(s.to.name)} of policy ${shown(s.policy)}`;
    case 'remove-rule':
      return `remove rule ${shown(s.rule.name)} from policy ${shown(s.policy)}`;
  }
}
