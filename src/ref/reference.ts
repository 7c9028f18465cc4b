// PURE: image references as the docker CLI reads them, parsed once into small immutable values.
// Imports nothing that does IO.

import { ValidationError } from '../errors.js';

export const DOCKER_HUB = 'docker.io';
export const DOCKER_HUB_REGISTRY_HOST = 'registry-1.docker.io';
export const DEFAULT_TAG = 'latest';

export const COMPONENT_PATTERN = '[a-z0-9]+(?:[._-][a-z0-9]+)*';
export const TAG_PATTERN = '[\\w][\\w.-]{0,127}';
const COMPONENT_RE = new RegExp(`^${COMPONENT_PATTERN}$`);
const TAG_RE = new RegExp(`^${TAG_PATTERN}$`);
const DIGEST_RE = /^sha256:[a-f0-9]{64}$/;
const DOMAIN_COMPONENT_RE = /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;
const IPV6_BRACKET_RE = /^\[[0-9a-fA-F:.]+\]$/;
const PORT_RE = /^[0-9]{1,5}$/;
export const NAME_MAX_LENGTH = 255;

/** A parsed image reference: `registry/repository[:tag][@digest]`. */
export interface ImageReference {
  /** The registry as written in references: `docker.io`, `localhost:5000`, `[::1]:5000`. */
  readonly registry: string;
  /** The repository path: `library/alpine`, `team/app`. */
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** A repository without tag or digest (for `image tags`). */
export interface RepositoryName {
  readonly registry: string;
  readonly repository: string;
}

export function isDigest(s: string): boolean {
  return DIGEST_RE.test(s);
}

export function assertDigest(s: string, what = 'digest'): string {
  if (!DIGEST_RE.test(s)) {
    throw new ValidationError(
      `invalid ${what} "${s}": a digest is "sha256:" followed by 64 lowercase hex digits`,
    );
  }
  return s;
}

function invalid(input: string, rule: string): ValidationError {
  return new ValidationError(`invalid reference "${input}": ${rule}`);
}

/** Splits `name[:tag][@digest]` into its parts, without validating the name. */
function splitTagDigest(input: string): { name: string; tag?: string; digest?: string } {
  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST_RE.test(digest)) {
      throw invalid(input, `digest "${digest}" must be "sha256:" followed by 64 lowercase hex digits`);
    }
  }
  let tag: string | undefined;
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG_RE.test(tag)) throw invalid(input, `tag "${tag}" must match ${TAG_PATTERN}`);
  }
  return { name: rest, tag, digest };
}

function validateDomain(input: string, domain: string): string {
  let host = domain;
  let port: string | undefined;
  if (domain.startsWith('[')) {
    const end = domain.indexOf(']');
    host = domain.slice(0, end + 1);
    const after = domain.slice(end + 1);
    if (end < 0 || !IPV6_BRACKET_RE.test(host) || (after !== '' && !after.startsWith(':'))) {
      throw invalid(input, `registry "${domain}" is not a valid host`);
    }
    if (after) port = after.slice(1);
  } else {
    const c = domain.lastIndexOf(':');
    if (c >= 0) {
      host = domain.slice(0, c);
      port = domain.slice(c + 1);
    }
    const labels = host.split('.');
    if (!labels.every((l) => DOMAIN_COMPONENT_RE.test(l))) {
      throw invalid(input, `registry "${domain}" is not a valid host name`);
    }
  }
  if (port !== undefined && (!PORT_RE.test(port) || Number(port) < 1 || Number(port) > 65535)) {
    throw invalid(input, `registry port "${port}" must be a number from 1 to 65535`);
  }
  // index.docker.io is an old alias of Docker Hub.
  if (domain === 'index.docker.io') return DOCKER_HUB;
  return domain;
}

function parseName(input: string, name: string): RepositoryName {
  if (name === '') throw invalid(input, 'the repository name is empty');
  let registry = DOCKER_HUB;
  let path = name;
  const slash = name.indexOf('/');
  if (slash >= 0) {
    const first = name.slice(0, slash);
    // As in the docker CLI: the first component is a registry when it has a dot, a port, is
    // localhost, or has upper-case letters (which a repository path can never have).
    if (
      first.includes('.') ||
      first.includes(':') ||
      first === 'localhost' ||
      first !== first.toLowerCase()
    ) {
      registry = validateDomain(input, first);
      path = name.slice(slash + 1);
    }
  }
  if (registry === DOCKER_HUB && !path.includes('/')) path = `library/${path}`;
  if (path !== path.toLowerCase()) throw invalid(input, 'the repository name must be lowercase');
  for (const component of path.split('/')) {
    if (!COMPONENT_RE.test(component)) {
      throw invalid(
        input,
        component === ''
          ? 'the repository name has an empty path component'
          : `path component "${component}" must match ${COMPONENT_PATTERN}`,
      );
    }
  }
  const full = `${registry}/${path}`;
  if (full.length > NAME_MAX_LENGTH) {
    throw invalid(input, `the name is ${full.length} characters long; it must be fewer than 256`);
  }
  return { registry, repository: path };
}

/**
 * Parses a reference as the docker CLI does. With neither tag nor digest the tag is `latest`
 * (unless `defaultTag` is false).
 */
export function parseReference(input: string, opts: { defaultTag?: boolean } = {}): ImageReference {
  const trimmed = input.trim();
  if (trimmed === '') throw invalid(input, 'the reference is empty');
  if (/\s/.test(trimmed)) throw invalid(input, 'a reference cannot contain spaces');
  if (trimmed.includes('://')) throw invalid(input, 'a reference has no scheme (write host/repository:tag)');
  const { name, tag, digest } = splitTagDigest(trimmed);
  const repo = parseName(input, name);
  const useDefault = opts.defaultTag !== false && tag === undefined && digest === undefined;
  return Object.freeze({
    ...repo,
    ...(useDefault ? { tag: DEFAULT_TAG } : tag !== undefined ? { tag } : {}),
    ...(digest !== undefined ? { digest } : {}),
  });
}

/** Parses a repository (no tag, no digest). */
export function parseRepository(input: string): RepositoryName {
  const trimmed = input.trim();
  if (trimmed === '') throw invalid(input, 'the repository name is empty');
  const { name, tag, digest } = splitTagDigest(trimmed);
  if (tag !== undefined || digest !== undefined) {
    throw invalid(input, 'a repository is named without a tag or digest');
  }
  return Object.freeze(parseName(input, name));
}

/** What goes after `/manifests/`: the digest when there is one, else the tag. */
export function manifestReference(ref: ImageReference): string {
  return ref.digest ?? ref.tag ?? DEFAULT_TAG;
}

/** The host:port requests go to (`docker.io` is served at `registry-1.docker.io`). */
export function registryHost(registry: string): string {
  return registry === DOCKER_HUB ? DOCKER_HUB_REGISTRY_HOST : registry;
}

export function formatRepository(r: RepositoryName): string {
  return `${r.registry}/${r.repository}`;
}

/** The canonical form: `docker.io/library/alpine:latest`, `host/a@sha256:…`. */
export function formatReference(ref: ImageReference): string {
  let s = formatRepository(ref);
  if (ref.tag !== undefined) s += `:${ref.tag}`;
  if (ref.digest !== undefined) s += `@${ref.digest}`;
  return s;
}

/** The same repository with a different tag or digest. */
export function withDigest(ref: RepositoryName, digest: string): ImageReference {
  return Object.freeze({ registry: ref.registry, repository: ref.repository, digest: assertDigest(digest) });
}

/** Strips the port (and IPv6 brackets) from `host[:port]`. */
export function hostWithoutPort(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end > 0 ? host.slice(1, end) : host;
  }
  const colon = host.indexOf(':');
  if (colon >= 0 && host.indexOf(':', colon + 1) >= 0) return host; // bare IPv6
  return colon >= 0 ? host.slice(0, colon) : host;
}

function isLoopbackV4(h: string): boolean {
  const parts = h.split('.');
  if (parts.length !== 4 || parts[0] !== '127') return false;
  return parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

function isLoopbackV6(h: string): boolean {
  const lower = h.toLowerCase();
  if (lower === '::1') return true;
  // 0:0:0:0:0:0:0:1 and friends
  const groups = lower.split(':');
  if (
    groups.length === 8 &&
    groups.slice(0, 7).every((g) => /^0{1,4}$/.test(g)) &&
    /^0{0,3}1$/.test(groups[7] ?? '')
  ) {
    return true;
  }
  const mapped = /^::ffff:([0-9.]+)$/.exec(lower);
  return mapped !== null && isLoopbackV4(mapped[1] ?? '');
}

/**
 * Decisions §1: plain HTTP for localhost, 127.0.0.0/8, ::1, and any host named with
 * `--plain-http` (compared with and without its port); HTTPS for everything else.
 */
export function plainHttpFor(host: string, plainHttpHosts: readonly string[] = []): boolean {
  const lower = host.toLowerCase();
  const bare = hostWithoutPort(lower);
  if (bare === 'localhost' || bare.endsWith('.localhost') || isLoopbackV4(bare) || isLoopbackV6(bare))
    return true;
  return plainHttpHosts.some((h) => {
    const p = h.trim().toLowerCase();
    return p !== '' && (p === lower || p === bare);
  });
}

/** The base URL of a registry: `http://localhost:5000` or `https://registry-1.docker.io`. */
export function registryBaseUrl(registry: string, plainHttpHosts: readonly string[] = []): string {
  const host = registryHost(registry);
  return `${plainHttpFor(host, plainHttpHosts) ? 'http' : 'https'}://${host}`;
}
