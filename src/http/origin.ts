// Origins: where a credential may go. A credential is bound to the origin (scheme, host, port) it
// was issued for; the HTTP layer attaches it to a request only when the request goes there, and
// never over plain HTTP unless that origin is this machine's loopback.
import { UnexpectedAnswerError, UsageError } from '../errors.js';

/**
 * A credential and the one origin it belongs to. `authorization` is the header value; without it
 * the request body carries the secret (the hub's token exchange), and the same rules apply.
 */
export interface BoundCredential {
  /** `scheme://host[:port]`, as `URL.origin` writes it. */
  origin: string;
  authorization?: string;
}

/** 127.0.0.0/8, ::1 and `localhost`, as the WHATWG parser writes them (it canonicalises IPv4). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** HTTPS anywhere, plain HTTP to loopback only: where a secret may travel. */
export function isSecureOrigin(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/** The origin of a URL string, or undefined when it does not parse. */
export function originOf(url: string | URL): string | undefined {
  try {
    return new URL(String(url)).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a credential whose own origin is plain HTTP to another machine (a `--base-url http://…`,
 * a `--plain-http` registry): the secret would cross the network in the clear. Nothing was sent.
 */
export function assertSecureCredentialOrigin(credential: BoundCredential): void {
  // Checked once per origin (a pure function of its text): a long read sends thousands of requests.
  if (secureOrigins.has(credential.origin)) return;
  const url = new URL(credential.origin);
  if (isSecureOrigin(url)) {
    if (secureOrigins.size < 64) secureOrigins.add(credential.origin);
    return;
  }
  throw new UsageError(
    `refusing to send credentials to ${credential.origin} over plain HTTP (only loopback may use plain HTTP)`,
    { hint: 'Use an https:// address for this server.' },
  );
}

/** Credential origins found secure by assertSecureCredentialOrigin (a few: one per service). */
const secureOrigins = new Set<string>();

/** True when the credential may be attached to a request to `url`. */
export function credentialApplies(credential: BoundCredential, url: URL): boolean {
  return url.origin === credential.origin && isSecureOrigin(url);
}

/**
 * A registry's token service (the realm of its Bearer challenge), checked before anything is sent.
 * The registry's credential goes where the registry says, as the docker CLI and containers/image
 * send it (whoever runs the registry could ask for Basic credentials directly anyway), but only
 * over a channel that keeps it secret:
 * - an https:// realm, on any host;
 * - an http:// realm only when both it and the registry are on loopback (this machine's own
 *   services; a remote registry naming http://127.0.0.1:… would hand the secret to whatever local
 *   process holds that port);
 * - never any other scheme, and never a realm that does not parse.
 * Without a credential, any http(s) realm may be asked for an anonymous token.
 */
export function tokenRealmUrl(
  realm: string,
  registryBaseUrl: string,
  opts: { registry: string; withCredential: boolean },
): URL {
  const refuse = (why: string) =>
    new UnexpectedAnswerError(`unexpected answer from ${opts.registry}: its token service ${why}`);
  let url: URL;
  try {
    url = new URL(realm);
  } catch {
    throw refuse('is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refuse(`is not an http(s) URL (${url.protocol})`);
  if (url.username || url.password) throw refuse('carries a user name or password in its URL');
  if (!opts.withCredential || url.protocol === 'https:') return url;
  if (isLoopbackHost(url.hostname) && isLoopbackHost(new URL(registryBaseUrl).hostname)) return url;
  throw refuse(
    `is plain HTTP on another machine (${url.origin}): hubctl sends credentials to a token service only over HTTPS, or on loopback for a loopback registry`,
  );
}
