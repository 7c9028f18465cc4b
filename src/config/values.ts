// Setting values checked where they enter (a flag, an environment variable, a profile, `config
// set`): one plain sentence naming where the value came from, exit 2. Pure: no IO.
import { UsageError } from '../errors.js';

/** Profile names: a letter or digit, then letters, digits, `.`, `_`, `-`; at most 64 characters. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function assertProfileName(name: string, from = 'profile name'): string {
  if (!PROFILE_NAME.test(name))
    throw new UsageError(
      `${from} ${JSON.stringify(name)} is not valid: use letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)`,
    );
  return name;
}

/** URLs longer than this are refused (a base address is short; no server takes megabytes). */
const MAX_URL = 2048;

/** An http(s) base address without credentials, query or fragment; returned without a final slash. */
/**
 * What a credential is bound to: the origin and base path of an address, in the URL parser's
 * normal form (host case, default port, dot segments) and without trailing slashes. Two services on
 * one host and port under different paths are two services.
 */
export function baseOf(url: string): string {
  const u = new URL(url);
  return u.origin + u.pathname.replace(/\/+$/, '');
}

/**
 * Where a stored credential is bound, and where `url` would take it: its origin and base path, or,
 * for an entry from before base paths were kept, its origin alone. `boundTo` is undefined for an
 * entry bound to nothing (hub credentials stored before origins were).
 */
export function credentialBinding(
  entry: { origin?: string; base?: string },
  url: string,
): { boundTo: string | undefined; target: string } {
  return entry.base !== undefined
    ? { boundTo: entry.base, target: baseOf(url) }
    : { boundTo: entry.origin, target: new URL(url).origin };
}

export function checkBaseUrl(value: string, from: string): string {
  // The value is shown with any user name and password replaced: a refusal must not print them.
  const refuse = (why: string) =>
    new UsageError(`${from} ${JSON.stringify(clip(redactUserinfo(value)))} ${why}`, {
      hint: 'Write an http:// or https:// address, such as https://hub.docker.com.',
    });
  if (value.length > MAX_URL) throw refuse(`is longer than ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refuse('is not an http:// or https:// address');
  if (url.username || url.password || hasUserinfo(value))
    throw refuse('carries a user name or password: log in with `auth login`');
  if (url.search || url.hash) throw refuse('has a query or fragment: give the base address only');
  return value.replace(/\/+$/, '');
}

/**
 * Where a URL-like text would carry userinfo: after `scheme:` and its slashes, everything up to the
 * last `@` before the authority ends (`/`, `\\`, `?`, `#`). The WHATWG parser takes the last `@`
 * too, so `http://a:b@c@host` is user `a`, password `b@c`. Works on text that does not parse.
 */
const USERINFO = /^(\s*[A-Za-z][A-Za-z0-9+.-]*:[/\\]*)([^/\\?#]*)@/;

/** Whether an address carries a user name or password (`scheme://user:password@host`). */
export function hasUserinfo(value: string): boolean {
  return USERINFO.test(value);
}

/** The address with its user name and password replaced by `***`, for messages. */
export function redactUserinfo(value: string): string {
  return value.replace(USERINFO, '$1***@');
}

/** Organization names: letters, digits, `.`, `_`, `-`, 1–255 characters (they go into URL paths). */
const ORG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

export function checkOrg(value: string, from: string): string {
  if (!ORG_NAME.test(value))
    throw new UsageError(
      value === ''
        ? `${from} cannot be empty`
        : `${from} ${JSON.stringify(clip(value))} is not an organization name (letters, digits, ".", "_", "-")`,
    );
  return value;
}

/** Long values are shown by their start only: the sentence stays one line. */
function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}
