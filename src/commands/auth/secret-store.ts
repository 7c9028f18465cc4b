// Where `auth login` keeps a secret: hubctl's own 0600 file, or a docker credential helper (the
// `credential-store` setting, HUBCTL_CREDENTIAL_STORE, or — asked on a terminal — the docker CLI's
// credsStore). A helper that fails is an error; only --insecure-storage leads to the file then.
import type { SecretStore } from '../../auth/credential-helper.js';
import type { Settings } from '../../config/settings.js';
import type { StoredEntry } from '../../config/store.js';
import type { Context } from '../../context.js';

export interface StoreChoice {
  /** A helper's name; undefined for the file. */
  helper?: string;
  /** Why, in words, for the login message. */
  why: string;
  /** A second line for the login message. */
  note?: string;
}

/** The helper entry of a hub account: per hub origin and profile. */
export function hubServerUrl(baseUrl: string, profile: string): string {
  return `${new URL(baseUrl).origin}/hubctl/profiles/${encodeURIComponent(profile)}`;
}

/** The helper entry of a registry login; apart from the docker CLI's own entry for that host. */
export function registryServerUrl(host: string): string {
  return `https://${host}/hubctl`;
}

export async function chooseStore(ctx: Context, settings: Settings, insecure: boolean): Promise<StoreChoice> {
  if (insecure) return { why: '--insecure-storage' };
  const setting = settings.credentialStore;
  if (setting === 'file') return { why: 'credential-store is file' };
  if (setting) return { helper: setting, why: 'the credential-store setting' };
  const { dockerCredsStore } = await import('../../auth/docker-config.js');
  const docker = await dockerCredsStore(ctx.env);
  if (!docker) return { why: 'no credential-store is set' };
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    const yes = await ctx.prompt.confirm(
      `The docker CLI keeps its secrets in docker-credential-${docker}. Keep this one there too?`,
    );
    if (yes) return { helper: docker, why: "the docker CLI's credsStore" };
    return { why: 'you chose the file' };
  }
  return {
    why: 'no credential-store is set',
    note: `The docker CLI keeps its secrets in docker-credential-${docker}; \`hubctl config set credential-store ${docker}\` keeps hubctl's there too.`,
  };
}

export async function helperFor(ctx: Context, name: string): Promise<SecretStore> {
  const { helperStore } = await import('../../auth/credential-helper.js');
  return helperStore(name, { env: ctx.env });
}

/** Stores the secret where the choice says and returns the entry for credentials.json. */
export async function keepSecret(
  ctx: Context,
  choice: StoreChoice,
  serverUrl: string,
  username: string,
  secret: string,
): Promise<StoredEntry> {
  if (!choice.helper) return { username, secret };
  await (await helperFor(ctx, choice.helper)).store(serverUrl, username, secret);
  return { username, helper: choice.helper, serverUrl };
}

/** Erases a helper-kept secret (a file entry needs nothing more than its removal). */
export async function eraseSecret(ctx: Context, entry: StoredEntry | undefined): Promise<void> {
  if (entry && 'helper' in entry) await (await helperFor(ctx, entry.helper)).erase(entry.serverUrl);
}

/** How the login message and `auth status` name a store. */
export function storeName(choice: StoreChoice, filePath: string): string {
  return choice.helper ? `docker-credential-${choice.helper}` : filePath;
}
