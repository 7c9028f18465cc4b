// The docker CLI's credentials: `auths` entries, and `credsStore`/`credHelpers` through the
// docker-credential-<helper> protocol (`get`, server URL on stdin, JSON on stdout).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface DockerCredential {
  username: string;
  secret: string;
  /** "docker config.json (auths)" or "docker-credential-<helper>" */
  source: string;
}

type Json = Record<string, unknown>;

/** The names Docker Hub goes by in config.json; the docker CLI stores it under the first. */
export const DOCKER_HUB_KEYS = [
  'https://index.docker.io/v1/',
  'index.docker.io',
  'docker.io',
  'registry-1.docker.io',
];

export function dockerConfigPath(env: Record<string, string | undefined>): string {
  return join(env.DOCKER_CONFIG || join(env.HOME || homedir(), '.docker'), 'config.json');
}

export type HelperRunner = (helper: string, serverUrl: string) => Promise<string>;

const runHelper: HelperRunner = (helper, serverUrl) =>
  new Promise((resolve, reject) => {
    const child = execFile(`docker-credential-${helper}`, ['get'], { timeout: 10_000 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    child.stdin?.end(serverUrl);
  });

/**
 * Looks up `host` (a registry host, or Docker Hub when `hub` is true) in the docker CLI's config.
 * A missing file, or a helper that has nothing, means no credential; a malformed file is ignored
 * rather than fatal, since it belongs to another tool.
 */
export async function dockerCredential(
  env: Record<string, string | undefined>,
  host: string,
  runner: HelperRunner = runHelper,
): Promise<DockerCredential | undefined> {
  // Every value is checked for its type as it is read: the file and the helper's answer belong to
  // other tools, and a wrong one means "no credential here", never a crash.
  let config: Json;
  try {
    const parsed = JSON.parse(await readFile(dockerConfigPath(env), 'utf8')) as unknown;
    if (!isRecord(parsed)) return undefined;
    config = parsed;
  } catch {
    return undefined;
  }
  const keys = DOCKER_HUB_KEYS.includes(host) ? DOCKER_HUB_KEYS : [host, `https://${host}`, `http://${host}`];
  const helpers = isRecord(config.credHelpers) ? config.credHelpers : {};
  const helper = [...keys.map((k) => helpers[k]), config.credsStore].find(isHelperName);
  if (helper) {
    for (const key of keys.slice(0, 1)) {
      try {
        const out = JSON.parse(await runner(helper, key)) as unknown;
        if (isRecord(out) && nonEmpty(out.Username) && nonEmpty(out.Secret)) {
          return { username: out.Username, secret: out.Secret, source: `docker-credential-${helper}` };
        }
      } catch {
        // "credentials not found" is an exit status; fall through to auths.
      }
    }
  }
  const auths = isRecord(config.auths) ? config.auths : {};
  for (const key of keys) {
    const entry = auths[key];
    if (!isRecord(entry)) continue;
    if (nonEmpty(entry.username) && nonEmpty(entry.password)) {
      return { username: entry.username, secret: entry.password, source: 'docker config.json (auths)' };
    }
    if (nonEmpty(entry.auth)) {
      const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        return {
          username: decoded.slice(0, colon),
          secret: decoded.slice(colon + 1),
          source: 'docker config.json (auths)',
        };
      }
    }
  }
  return undefined;
}

function isRecord(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function nonEmpty(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}

/** A helper is a program named docker-credential-<name>: a name, never a path. */
function isHelperName(v: unknown): v is string {
  return typeof v === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(v);
}

/** The docker CLI's `credsStore` (its default credential helper), if its config names one. */
export async function dockerCredsStore(env: Record<string, string | undefined>): Promise<string | undefined> {
  try {
    const config = JSON.parse(await readFile(dockerConfigPath(env), 'utf8')) as unknown;
    return isRecord(config) && isHelperName(config.credsStore) && config.credsStore.length <= 64
      ? config.credsStore
      : undefined;
  } catch {
    return undefined;
  }
}
