// Rule option values checked at the edge, with the policy parser of src/policy (the one `policy eval`
// uses): nothing here sends a request, so a refused rule never reaches the server.
import { UsageError, ValidationError } from '../../errors.js';
import { type Decision, type Domain, domainOfActions, parseResource } from '../../policy/index.js';

/** The rule flags of `rule add` and `rule update`, as commander gives them. */
export interface RuleFlags {
  name?: string;
  action?: string[];
  resource?: string[];
  httpResource?: string[];
  decision?: string;
}

export function checkRuleName(name: string): string {
  if (name.trim() === '') throw new UsageError('--name must not be empty');
  return name;
}

export function checkDecision(value: string): Decision {
  if (value !== 'allow' && value !== 'deny') {
    throw new ValidationError(`--decision "${value}" is not allowed; a decision is "allow" or "deny"`);
  }
  return value;
}

/** Resources valid for the domain, each parsed by the rule grammar (decisions §4). */
export function checkResources(domain: Domain, resources: string[]): string[] {
  if (resources.length === 0) throw new UsageError(`--resource needs at least one ${domain} resource`);
  for (const r of resources) parseResource(domain, r);
  return resources;
}

/**
 * The parts of a rule given on the command line, checked as far as they can be without the policy:
 * known actions of one domain, a decision, and resources valid for the actions' domain.
 */
export function checkRuleParts(parts: {
  name?: string;
  actions?: string[];
  decision?: string;
  resources?: string[];
}): { name?: string; actions?: string[]; decision?: Decision; resources?: string[]; domain?: Domain } {
  const out: ReturnType<typeof checkRuleParts> = {};
  if (parts.name !== undefined) out.name = checkRuleName(parts.name);
  if (parts.actions !== undefined) {
    out.actions = [...new Set(parts.actions)];
    out.domain = domainOfActions(out.actions);
  }
  if (parts.decision !== undefined) out.decision = checkDecision(parts.decision);
  if (parts.resources !== undefined) {
    if (parts.resources.length === 0) throw new UsageError('--resource needs a value');
    out.resources = out.domain ? checkResources(out.domain, parts.resources) : parts.resources;
  }
  return out;
}
