// Local rule validation, shared by `rule add/update` (issue 3) and policy files (issue 4): the same
// parser as the evaluator. Every error names the bad value and says what is allowed. Pure: no IO.
import { ValidationError } from '../errors.js';
import { type Decision, type Domain, domainOfAction, KNOWN_ACTIONS } from './model.js';
import { parseResource } from './resource.js';

const ALLOWED_ACTIONS = `network: ${KNOWN_ACTIONS.network.join(', ')}; filesystem: ${KNOWN_ACTIONS.filesystem.join(', ')}`;

/**
 * The single domain of a rule's actions. Throws ValidationError for no action, an unknown action,
 * or actions of both domains.
 */
export function domainOfActions(actions: readonly string[]): Domain {
  if (actions.length === 0)
    throw new ValidationError(`a rule needs at least one action (${ALLOWED_ACTIONS})`);
  let domain: Domain | undefined;
  let first = '';
  for (const a of actions) {
    const d = domainOfAction(a);
    if (!d) throw new ValidationError(`unknown action "${a}"; allowed actions are ${ALLOWED_ACTIONS}`);
    if (domain && d !== domain) {
      throw new ValidationError(
        `actions "${first}" (${domain}) and "${a}" (${d}) mix domains; all actions of a rule belong to one domain (${ALLOWED_ACTIONS})`,
      );
    }
    if (!domain) {
      domain = d;
      first = a;
    }
  }
  return domain!;
}

/** A checked rule, without id. */
export interface ValidRule {
  name: string;
  actions: string[];
  decision: Decision;
  resources: string[];
  domain: Domain;
}

export interface RuleInput {
  name: unknown;
  actions: unknown;
  decision: unknown;
  resources: unknown;
}

export interface ValidateRuleOptions {
  /** The domain of the policy's other rules; the rule must share it. */
  policyDomain?: Domain;
}

function stringList(field: string, v: unknown): string[] {
  if (!Array.isArray(v)) throw new ValidationError(`"${field}" must be a list of strings`);
  for (const x of v) {
    if (typeof x !== 'string')
      throw new ValidationError(`"${field}" must be a list of strings, not ${JSON.stringify(x)}`);
  }
  return v as string[];
}

/**
 * Checks a rule before it is sent or evaluated: a non-empty name, known actions of one domain, a
 * decision of `allow` or `deny`, at least one resource and every resource valid for the domain, and
 * the domain equal to the policy's when given. Returns the rule without id (resources as written,
 * duplicates of actions removed).
 */
export function validateRule(input: RuleInput, opts: ValidateRuleOptions = {}): ValidRule {
  if (typeof input.name !== 'string' || input.name.trim() === '') {
    throw new ValidationError('a rule needs a non-empty name');
  }
  const actions = [...new Set(stringList('actions', input.actions))];
  const domain = domainOfActions(actions);
  if (input.decision !== 'allow' && input.decision !== 'deny') {
    throw new ValidationError(
      `decision ${JSON.stringify(input.decision)} is not allowed; a decision is "allow" or "deny"`,
    );
  }
  const decision: Decision = input.decision;
  const resources = stringList('resources', input.resources);
  if (resources.length === 0) throw new ValidationError(`a rule needs at least one ${domain} resource`);
  for (const r of resources) parseResource(domain, r);
  if (opts.policyDomain && opts.policyDomain !== domain) {
    throw new ValidationError(
      `the rule's actions (${actions.join(', ')}) are ${domain} actions but the policy's rules are ${opts.policyDomain}; ` +
        `a policy holds one domain (use ${KNOWN_ACTIONS[opts.policyDomain].join(' or ')}, or another policy)`,
    );
  }
  return { name: input.name, actions, decision, resources, domain };
}
