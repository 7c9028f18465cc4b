// Local rule validation, shared by `rule add/update` (issue 3) and policy files (issue 4): the same
// parser as the evaluator. Every error names the bad value and says what is allowed. Pure: no IO.
import { ValidationError } from '../errors.js';
import {
  type Decision,
  type Domain,
  domainOfAction,
  type HttpResource,
  isHttpAction,
  KNOWN_ACTIONS,
} from './model.js';
import { parseNetworkResource } from './network.js';
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

/** A checked rule, without id: `resources`, or `http_resources` for an HTTP rule (never both). */
export interface ValidRule {
  name: string;
  actions: string[];
  decision: Decision;
  resources?: string[];
  http_resources?: HttpResource[];
  domain: Domain;
}

export interface RuleInput {
  name: unknown;
  actions: unknown;
  decision: unknown;
  resources?: unknown;
  http_resources?: unknown;
}

export const HTTP_RESOURCE_FORM =
  '{host, port?, path}: host as in a network rule without scheme or port (api.github.com, *.github.com), ' +
  'port 1–65535 (absent: every port), path from "/" (`*` one segment, `**` any depth)';

/**
 * Why `path` is not a canonical HTTP path, or null: it starts with `/`; no query, fragment,
 * percent-encoding, whitespace, `.` or `..` segment, repeated or trailing slash. In a rule
 * (`wildcards`), `*` and `**` are whole segments.
 */
export function httpPathProblem(path: string, wildcards = true): string | null {
  if (!path.startsWith('/')) return 'a path starts with "/"';
  if (path.includes('?')) return 'a path has no query ("?…")';
  if (path.includes('#')) return 'a path has no fragment ("#…")';
  if (path.includes('%')) return 'a path is written without percent-encoding ("%…")';
  if (/[\s\x00-\x1f\x7f]/.test(path)) return 'a path has no whitespace or control characters';
  if (path === '/') return null;
  const segments = path.slice(1).split('/');
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg === '')
      return i === segments.length - 1 ? 'a path has no trailing "/"' : 'a path has no repeated "/"';
    if (seg === '.' || seg === '..') return `a path has no "${seg}" segment`;
    if (wildcards && seg.includes('*') && seg !== '*' && seg !== '**') {
      return `"${seg}": a wildcard is a whole segment ("*" one segment, "**" any depth)`;
    }
  }
  return null;
}

function httpHostProblem(host: string): string | null {
  if (host === '') return 'the host is empty';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host))
    return 'the host has no scheme (write "example.com", not "https://example.com")';
  if (host.includes('/')) return 'the host has no path (put it in "path")';
  try {
    if (parseNetworkResource(host).port !== 0) return 'the host has no port (put it in "port")';
  } catch (err) {
    if (err instanceof ValidationError) return err.message.replace(/; allowed: .*$/, '');
    throw err;
  }
  return null;
}

function badHttpResource(value: unknown, problem: string): ValidationError {
  return new ValidationError(
    `invalid HTTP resource ${JSON.stringify(value)}: ${problem}; allowed: ${HTTP_RESOURCE_FORM}`,
  );
}

/** Checks one HTTP resource; returns it as `{host, port?, path}` (no other fields). */
export function validateHttpResource(value: unknown): HttpResource {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badHttpResource(value, 'it is not an object');
  }
  const { host, port, path, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw badHttpResource(value, `unknown field "${extra[0]}"`);
  if (typeof host !== 'string') throw badHttpResource(value, '"host" must be a string');
  const hostProblem = httpHostProblem(host);
  if (hostProblem) throw badHttpResource(value, hostProblem);
  if (port !== undefined && port !== null) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw badHttpResource(value, '"port" must be a number from 1 to 65535 (absent: every port)');
    }
  }
  if (typeof path !== 'string') throw badHttpResource(value, '"path" must be a string starting with "/"');
  const pathProblem = httpPathProblem(path);
  if (pathProblem) throw badHttpResource(value, pathProblem);
  return port === undefined || port === null ? { host, path } : { host, port, path };
}

/** Checks the HTTP resources of a rule: a non-empty list of valid `{host, port?, path}`. */
export function validateHttpResources(value: unknown): HttpResource[] {
  if (!Array.isArray(value))
    throw new ValidationError(`"http_resources" must be a list of ${HTTP_RESOURCE_FORM}`);
  if (value.length === 0) throw new ValidationError('an HTTP rule needs at least one HTTP resource');
  return value.map(validateHttpResource);
}

/**
 * Whether the actions make an HTTP rule (`request:*`, with `http_resources`) or not; throws when
 * they mix HTTP and other actions.
 */
export function isHttpActionList(actions: readonly string[]): boolean {
  const http = actions.filter(isHttpAction);
  if (http.length === 0) return false;
  const other = actions.find((a) => !isHttpAction(a));
  if (other !== undefined) {
    throw new ValidationError(
      `actions "${http[0]}" and "${other}" mix HTTP and connection actions; an HTTP rule has request:* actions only (with http_resources), another rule holds ${other}`,
    );
  }
  return true;
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
 * decision of `allow` or `deny`, at least one resource and every resource valid for the domain (or,
 * for `request:*` actions only, at least one valid HTTP resource), and the domain equal to the
 * policy's when given. Returns the rule without id (resources as written,
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
  const checked = checkResources(input, actions, domain);
  if (opts.policyDomain && opts.policyDomain !== domain) {
    throw new ValidationError(
      `the rule's actions (${actions.join(', ')}) are ${domain} actions but the policy's rules are ${opts.policyDomain}; ` +
        `a policy holds one domain (use ${KNOWN_ACTIONS[opts.policyDomain].join(' or ')}, or another policy)`,
    );
  }
  return { name: input.name, actions, decision, ...checked, domain };
}

function checkResources(
  input: RuleInput,
  actions: readonly string[],
  domain: Domain,
): { resources: string[] } | { http_resources: HttpResource[] } {
  const hasHttp = input.http_resources !== undefined && input.http_resources !== null;
  if (isHttpActionList(actions)) {
    if (Array.isArray(input.resources) && input.resources.length > 0) {
      throw new ValidationError('an HTTP rule (request:* actions) has http_resources in place of resources');
    }
    if (!hasHttp)
      throw new ValidationError(
        `an HTTP rule (request:* actions) needs http_resources: ${HTTP_RESOURCE_FORM}`,
      );
    return { http_resources: validateHttpResources(input.http_resources) };
  }
  if (hasHttp) {
    throw new ValidationError(
      `http_resources are for HTTP rules (request:* actions); ${actions.join(', ')} take${actions.length > 1 ? '' : 's'} resources`,
    );
  }
  const resources = stringList('resources', input.resources);
  if (resources.length === 0) throw new ValidationError(`a rule needs at least one ${domain} resource`);
  for (const r of resources) parseResource(domain, r);
  return { resources };
}

/**
 * An HTTP resource written on one line, as `policy get` shows it: `host[:port]/path`
 * (`api.github.com/repos/**`, `*.x.test:8443/`, `[2001:db8::1]:443/v1`). No scheme.
 */
export function parseHttpResourceText(text: string): HttpResource {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new ValidationError(
      `invalid HTTP resource "${text}": write host[:port]/path without a scheme (api.github.com/repos/**)`,
    );
  }
  const close = text.startsWith('[') ? text.indexOf(']') : -1;
  const slash = text.indexOf('/', close + 1);
  if (slash < 0) {
    throw new ValidationError(
      `invalid HTTP resource "${text}": it needs a path, as host[:port]/path (api.github.com/**)`,
    );
  }
  const hostPort = text.slice(0, slash);
  let host = hostPort;
  let port: number | undefined;
  const colon = hostPort.lastIndexOf(':');
  if (colon > close && (close >= 0 || hostPort.indexOf(':') === colon)) {
    host = hostPort.slice(0, colon);
    const p = hostPort.slice(colon + 1);
    port = /^[0-9]{1,5}$/.test(p) ? Number(p) : Number.NaN;
  }
  if (close >= 0) host = host.slice(1, close);
  const value: Record<string, unknown> = { host, path: text.slice(slash) };
  if (port !== undefined) value.port = port;
  try {
    return validateHttpResource(value);
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new ValidationError(err.message.replace(JSON.stringify(value), `"${text}"`));
    }
    throw err;
  }
}
