// Credentials as a chain (decisions §2): the first source with a credential wins, and says its name.

import type { ConfigReader } from '../config/read.js';
import type { Settings } from '../config/settings.js';
import type { StoredEntry } from '../config/store.js';
import { credentialBinding } from '../config/values.js';
import { AuthError } from '../errors.js';
import type { SecretStore } from './credential-helper.js';
import {
  DOCKER_HUB_KEYS,
  dockerCredential,
  envDockerCredential,
  type HelperRunner,
  type ListedCredential,
  listDockerCredentials,
} from './docker-config.js';

export type { ListedCredential };

export interface Credential {
  username: string;
  secret: string;
  /** Where it came from, as `auth status` shows it. */
  source: string;
  /** Where the secret is kept: `file`, a helper program (`docker-credential-pass`), `environment`… */
  store?: string;
  /** `secret` is an OAuth2 refresh token (a docker identity token), not a password. */
  identityToken?: boolean;
}

export interface CredentialChain {
  /** The hub account's credential, or undefined when no source has one. */
  hub(): Promise<Credential | undefined>;
  /** Credentials for a registry host (`host[:port]`); Docker Hub's registry uses the hub chain. */
  registry(host: string): Promise<Credential | undefined>;
  /** Every registry credential there is, in the order the chain consults them; no secret. */
  listRegistries(): Promise<ListedCredential[]>;
}

export interface ChainDeps {
  env: Record<string, string | undefined>;
  settings: Settings;
  /** Opened only when a source needs it. */
  store: () => ConfigReader;
  helperRunner?: HelperRunner;
  /** The credential helper behind a stored entry (default: the docker-credential-NAME program). */
  secretStore?: (helper: string) => SecretStore;
}

/**
 * The one origin of Docker Hub's API (https, default port). The docker CLI's Docker Hub login and a
 * profile's hub account are Docker Hub's only when the base URL is exactly this origin:
 * `http://hub.docker.com:8080` or `https://hub.docker.com:444` is someone else.
 */
const DOCKER_HUB_API_ORIGIN = 'https://hub.docker.com';

function isDockerHubApi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).origin === DOCKER_HUB_API_ORIGIN;
  } catch {
    return false;
  }
}

export function isDockerHubRegistry(host: string): boolean {
  return DOCKER_HUB_KEYS.includes(host);
}

/** Where an `auth login <registry>` keeps its secret, as `auth status` names it (never the secret). */
function storedRegistrySource(entry: StoredEntry): string {
  return 'helper' in entry ? `docker-credential-${entry.helper} (via hubctl)` : 'hubctl credentials.json';
}

export function createCredentialChain(deps: ChainDeps): CredentialChain {
  const { env, settings } = deps;

  /** A stored entry as a credential: a helper's entry asks the helper, whose failure is an error. */
  async function unpack(entry: StoredEntry, source: string): Promise<Credential> {
    if ('secret' in entry) return { username: entry.username, secret: entry.secret, source, store: 'file' };
    const { helperStore } = await import('./credential-helper.js');
    const helper = deps.secretStore?.(entry.helper) ?? helperStore(entry.helper, { env });
    const found = await helper.get(entry.serverUrl);
    if (!found) {
      throw new AuthError(`${helper.program} no longer holds the secret of ${entry.username} (${source})`, {
        hint: 'Run `hubctl auth login` again.',
      });
    }
    return { username: entry.username, secret: found.secret, source, store: helper.program };
  }

  const hubSource = () => `stored credential of profile "${settings.profile}"`;
  const envSource = 'environment (HUBCTL_USERNAME, HUBCTL_TOKEN)';

  async function hub(): Promise<Credential | undefined> {
    if (env.HUBCTL_TOKEN) {
      const username = settings.username;
      if (!username) {
        throw new AuthError('HUBCTL_TOKEN is set but no account name is', {
          hint: 'Set HUBCTL_USERNAME (or the organization name for an organization token).',
        });
      }
      return { username, secret: env.HUBCTL_TOKEN, source: envSource, store: 'environment' };
    }
    const stored = deps.store().hubCredential(settings.profile);
    if (stored) {
      // Bound to the hub it was verified against at login: its origin and base path (files from
      // before had the origin alone, or nothing).
      const { boundTo, target } = credentialBinding(stored, settings.baseUrl);
      if (boundTo && boundTo !== target) {
        throw new AuthError(
          `the stored credential of profile "${settings.profile}" is for ${boundTo}; hubctl does not send it to ${target}`,
          {
            hint: `Log in to ${new URL(settings.baseUrl).origin} with \`hubctl auth login\` under another --profile, or drop --base-url.`,
          },
        );
      }
      return unpack(stored, hubSource());
    }
    // The docker CLI's Docker Hub login is only ever sent to Docker Hub itself, never to another base URL.
    if (isDockerHubApi(settings.baseUrl)) {
      const docker = await dockerCredential(env, DOCKER_HUB_KEYS[0]!, deps.helperRunner);
      if (docker) return { username: docker.username, secret: docker.secret, source: docker.source };
    }
    return undefined;
  }

  async function registry(host: string): Promise<Credential | undefined> {
    // DOCKER_AUTH_CONFIG first: CI hands a job its registry logins this way.
    const fromEnv = await envDockerCredential(
      env,
      isDockerHubRegistry(host) ? DOCKER_HUB_KEYS[0]! : host,
      deps.helperRunner,
    );
    if (fromEnv) return fromEnv;
    if (isDockerHubRegistry(host)) {
      // Docker Hub's registry takes the hub account — only when that account is Docker Hub's: a
      // credential for another --base-url (a staging hub) is never offered to docker.io.
      if (isDockerHubApi(settings.baseUrl)) return hub();
      return dockerCredential(env, DOCKER_HUB_KEYS[0]!, deps.helperRunner);
    }
    const stored = deps.store().registryCredential(host);
    if (stored) return unpack(stored, storedRegistrySource(stored));
    return dockerCredential(env, host, deps.helperRunner);
  }

  async function listRegistries(): Promise<ListedCredential[]> {
    const docker = await listDockerCredentials(env, deps.helperRunner);
    const fromEnv = docker.filter((c) => c.source === 'DOCKER_AUTH_CONFIG');
    const store = deps.store();
    const stored: ListedCredential[] = (store.registryHosts?.() ?? []).flatMap((host) => {
      const c = store.registryCredential(host);
      return c
        ? [
            {
              registry: host,
              username: c.username,
              source: storedRegistrySource(c),
              kind: 'password' as const,
            },
          ]
        : [];
    });
    return [...fromEnv, ...stored, ...docker.filter((c) => c.source !== 'DOCKER_AUTH_CONFIG')];
  }

  return { hub, registry, listRegistries };
}
