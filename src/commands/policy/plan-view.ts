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

/** The HTTP method of the one write a step sends. */
export function stepMethod(s: Step): 'POST' | 'PATCH' | 'DELETE' {
  switch (s.op) {
    case 'create-policy':
    case 'add-rule':
      return 'POST';
    case 'update-policy':
      return 'PATCH';
    case 'change-rule':
      return s.how === 'patch' ? 'PATCH' : 'POST';
    case 'delete-policy':
    case 'remove-rule':
      return 'DELETE';
  }
}

const REMOVED_BECAUSE: Record<string, string> = {
  replaced: ' (its old version, once the new one is in)',
  scope: ' (out while the scope changes, then added back)',
  'policy-deleted': ' (before its policy is deleted)',
  duplicate: ' (a second rule of that name)',
};

/** The line of one step: every write the plan sends has its own, with its method. */
function stepLine(s: Step, names?: Map<string, string>): [string, string] {
  const rule = (name: string) => `  rule ${shown(name)} of policy ${shown(s.policy)}`;
  const [mark, text] = ((): [string, string] => {
    switch (s.op) {
      case 'create-policy':
        return ['+', `policy ${shown(s.policy)} (${s.cedar_v1 ? 'cedar_v1' : scopeWords(s.scope, names)})`];
      case 'delete-policy':
        return [
          '-',
          `policy ${shown(s.policy)} (${s.policyId}) and its ${s.rules} rule${s.rules === 1 ? '' : 's'}`,
        ];
      case 'update-policy': {
        const parts: string[] = [];
        if (s.scope)
          parts.push(`scope ${scopeWords(s.scope.from, names)} → ${scopeWords(s.scope.to, names)}`);
        if (s.cedar_v1) parts.push('Cedar text changes');
        return ['~', `policy ${shown(s.policy)}: ${parts.join('; ')}`];
      }
      case 'add-rule':
        return [
          '+',
          `${rule(s.rule.name)}: ${ruleWords(s.rule)}${s.reason === 'scope' ? ' (back once the scope has changed)' : ''}`,
        ];
      case 'change-rule': {
        const named = s.fields.includes('name') ? [`name ${shown(s.from.name)} → ${shown(s.to.name)}`] : [];
        const rest = s.fields.filter((f, i, a) => f !== 'name' && a.indexOf(f) === i);
        const what = rest.length > 0 ? [`${rest.join(', ')}: ${ruleWords(s.from)} → ${ruleWords(s.to)}`] : [];
        const how = s.how === 'replace' ? ' (its new version, as a new rule)' : '';
        return ['~', `${rule(s.to.name)}: ${[...named, ...what].join('; ')}${how}`];
      }
      case 'remove-rule':
        return ['-', `${rule(s.rule.name)}: ${ruleWords(s.rule)}${REMOVED_BECAUSE[s.reason ?? ''] ?? ''}`];
    }
  })();
  return [mark, `${text} [${stepMethod(s)}]`];
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
  const lines = plan.steps.map((s) => stepLine(s, names));
  for (const [mark, text] of lines) ctx.output.line(await ctx.output.style(`${mark} ${text}`, COLOUR[mark]!));
  const count = (mark: string) => lines.filter(([m]) => m === mark).length;
  const n = lines.length;
  ctx.output.info(
    `Plan: ${count('+')} to add, ${count('~')} to change, ${count('-')} to remove; ${n} write${n === 1 ? '' : 's'}, each line one.`,
  );
}

/** The plan as JSON: each step as the plan holds it, in write order, with the method it sends. */
export function planJson(plan: Plan): {
  differs: boolean;
  steps: (Step & { method: string })[];
  unmanaged: string[];
} {
  return {
    differs: plan.differs,
    steps: plan.steps.map((s) => ({ ...s, method: stepMethod(s) })),
    unmanaged: plan.unmanaged,
  };
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
