// The docker CLI's credentials: `auths` entries, and `credsStore`/`credHelpers` through the
// docker-credential-<helper> protocol (`get`, server URL on stdin, JSON on stdout). Read from the
// config file, or from DOCKER_AUTH_CONFIG (the same document in the environment, as the docker CLI
// and regctl read it for CI). An `identitytoken` (or a helper's `<token>` user) is an OAuth2
// refresh token for the registry's token service, never a password.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runHelper } from './credential-helper.js';

export interface DockerCredential {
  username: string;
  secret: string;
  /** "docker config.json (auths)", "DOCKER_AUTH_CONFIG (auths)" or "docker-credential-<helper>" */
  source: string;
  /** `secret` is an identity token: an OAuth2 refresh token, not a password. */
  identityToken?: boolean;
}

type Json = Record<string, unknown>;

/** A docker config document, every value still to be checked for its type as it is read. */
type DockerConfigFile = Json;

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

/** Runs `docker-credential-<helper> <action>` with `input` on stdin; answers its stdout. */
export type HelperRunner = (helper: string, input: string, action?: 'get' | 'list') => Promise<string>;

const runDockerHelper: HelperRunner = (helper, input, action = 'get') =>
  runHelper(`docker-credential-${helper}`, action, input, {});

/** The docker CLI's name for the user of an identity token. */
const TOKEN_USER = '<token>';

async function readConfigFile(
  env: Record<string, string | undefined>,
): Promise<DockerConfigFile | undefined> {
  // The file belongs to another tool: a wrong value means "no credential here", never a crash.
  try {
    const parsed = JSON.parse(await readFile(dockerConfigPath(env), 'utf8')) as unknown;
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** DOCKER_AUTH_CONFIG's document; a malformed one is ignored, as the docker CLI's file would be. */
function readEnvConfig(env: Record<string, string | undefined>): DockerConfigFile | undefined {
  const text = env.DOCKER_AUTH_CONFIG;
  if (!text) return undefined;
  try {
    const doc = JSON.parse(text) as unknown;
    return isRecord(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Looks up `host` (a registry host, or Docker Hub when `hub` is true) in the docker CLI's config
 * file. A missing file, or a helper that has nothing, means no credential; a malformed file is
 * ignored rather than fatal, since it belongs to another tool.
 */
export async function dockerCredential(
  env: Record<string, string | undefined>,
  host: string,
  runner: HelperRunner = runDockerHelper,
): Promise<DockerCredential | undefined> {
  const config = await readConfigFile(env);
  return config && lookup(config, host, runner, 'docker config.json (auths)');
}

/** The same lookup in DOCKER_AUTH_CONFIG. */
export async function envDockerCredential(
  env: Record<string, string | undefined>,
  host: string,
  runner: HelperRunner = runDockerHelper,
): Promise<DockerCredential | undefined> {
  const config = readEnvConfig(env);
  return config && lookup(config, host, runner, 'DOCKER_AUTH_CONFIG (auths)');
}

function keysFor(host: string): string[] {
  return DOCKER_HUB_KEYS.includes(host) ? DOCKER_HUB_KEYS : [host, `https://${host}`, `http://${host}`];
}

const section = (config: DockerConfigFile, name: string): Json =>
  isRecord(config[name]) ? (config[name] as Json) : {};

/** An `auths` entry as a credential: an identity token first, then user and password. */
function fromEntry(entry: unknown, source: string): DockerCredential | undefined {
  if (!isRecord(entry)) return undefined;
  let username = nonEmpty(entry.username) ? entry.username : undefined;
  let password = nonEmpty(entry.password) ? entry.password : undefined;
  if (nonEmpty(entry.auth) && (!username || !password)) {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      username = decoded.slice(0, colon);
      password = decoded.slice(colon + 1);
    }
  }
  if (nonEmpty(entry.identitytoken))
    return { username: username || TOKEN_USER, secret: entry.identitytoken, source, identityToken: true };
  if (username && password) return { username, secret: password, source };
  return undefined;
}

async function lookup(
  config: DockerConfigFile,
  host: string,
  runner: HelperRunner,
  source: string,
): Promise<DockerCredential | undefined> {
  const keys = keysFor(host);
  const helpers = section(config, 'credHelpers');
  const helper = [...keys.map((k) => helpers[k]), config.credsStore].find(isHelperName);
  if (helper) {
    try {
      const out = JSON.parse(await runner(helper, keys[0]!)) as unknown;
      if (isRecord(out) && nonEmpty(out.Username) && nonEmpty(out.Secret)) {
        const identityToken = out.Username === TOKEN_USER ? { identityToken: true } : {};
        return {
          username: out.Username,
          secret: out.Secret,
          source: `docker-credential-${helper}`,
          ...identityToken,
        };
      }
    } catch {
      // "credentials not found" is an exit status; fall through to auths.
    }
  }
  for (const key of keys) {
    const found = fromEntry(section(config, 'auths')[key], source);
    if (found) return found;
  }
  return undefined;
}

/** A registry credential as `auth status` lists it: never its secret. */
export interface ListedCredential {
  registry: string;
  username: string;
  source: string;
  kind: 'password' | 'identity token' | 'helper';
}

/** The registry a config key names: `https://index.docker.io/v1/` is docker.io. */
function registryOfKey(key: string): string {
  if (DOCKER_HUB_KEYS.includes(key)) return 'docker.io';
  return key.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
}

/** Every registry credential of DOCKER_AUTH_CONFIG, then of the config file (helpers listed too). */
export async function listDockerCredentials(
  env: Record<string, string | undefined>,
  runner: HelperRunner = runDockerHelper,
): Promise<ListedCredential[]> {
  const out: ListedCredential[] = [];
  const add = async (config: DockerConfigFile | undefined, source: string) => {
    if (!config) return;
    for (const [key, entry] of Object.entries(section(config, 'auths')).slice(0, 1000)) {
      const cred = fromEntry(entry, source);
      if (cred)
        out.push({
          registry: registryOfKey(key),
          username: cred.username,
          source,
          kind: cred.identityToken ? 'identity token' : 'password',
        });
    }
    for (const [key, helper] of Object.entries(section(config, 'credHelpers')).slice(0, 1000))
      if (isHelperName(helper))
        out.push({
          registry: registryOfKey(key),
          username: '',
          source: `docker-credential-${helper}`,
          kind: 'helper',
        });
    if (isHelperName(config.credsStore)) {
      try {
        const listed = JSON.parse(await runner(config.credsStore, '', 'list')) as unknown;
        for (const [url, user] of Object.entries(isRecord(listed) ? listed : {}).slice(0, 1000))
          out.push({
            registry: registryOfKey(url),
            username: String(user),
            source: `docker-credential-${config.credsStore}`,
            kind: 'helper',
          });
      } catch {
        // A helper that cannot list (or is missing) lists nothing.
      }
    }
  };
  await add(readEnvConfig(env), 'DOCKER_AUTH_CONFIG');
  await add(await readConfigFile(env), dockerConfigPath(env));
  return out;
}

/** The docker CLI's `credsStore` (its default credential helper), if its config names one. */
export async function dockerCredsStore(env: Record<string, string | undefined>): Promise<string | undefined> {
  const config = await readConfigFile(env);
  const name = config?.credsStore;
  return isHelperName(name) && name.length <= 64 ? name : undefined;
}
