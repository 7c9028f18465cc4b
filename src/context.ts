// The Context: everything a command may touch, and the only place real IO is constructed. Clients
// are lazy and memoised, so a command that never asks for the governance client never reads
// credentials, and `policy eval` or `--help` never load undici.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { AccessTokenClient } from './api/access-tokens.js';
import type { EngineClient } from './api/engine/client.js';
import type { GovernanceClient } from './api/governance.js';
import type { RegistryClient } from './api/registry/client.js';
import type { TeamDirectory } from './api/teams.js';
import type { CredentialChain } from './auth/chain.js';
import type { HubSession } from './auth/hub-session.js';
import { type Clock, systemClock } from './clock.js';
import type { RegistrySettings } from './config/registry-settings.js';
import { profileName, resolveSettings, type Settings } from './config/settings.js';
import type { ConfigStore } from './config/store.js';
import { UsageError } from './errors.js';
import { DEFAULT_GLOBALS, type GlobalOptions } from './globals.js';
import type { HttpClient } from './http/client.js';
import { escapeControl } from './output/escape.js';
import { colorEnabled, type IO } from './output/io.js';
import type { JqFilter } from './output/jq.js';
import { createOutput, type Output } from './output/output.js';
import { createPrompter, type Prompter } from './output/prompt.js';
import { VERSION } from './version.js';

export { DEFAULT_GLOBALS, type GlobalOptions, VERSION };

export interface Context {
  readonly io: IO;
  readonly env: Record<string, string | undefined>;
  readonly clock: Clock;
  readonly globals: GlobalOptions;
  readonly output: Output;
  readonly prompt: Prompter;
  /** Aborted on Ctrl-C, so long transfers can clean up. */
  readonly signal: AbortSignal;
  /** The node running hubctl and its platform (`hubctl version`). */
  readonly runtime: { node: string; platform: string };
  /** Where config.json and credentials.json live. */
  configDir(): string;
  /** Where resumable state lives (unfinished uploads). */
  stateDir(): string;
  /** Writes a --debug line to stderr (already redacted by the caller). */
  debug(line: string): void;
  /** Reads all of standard input as text. */
  readStdin(): Promise<string>;
  config(): Promise<ConfigStore>;
  settings(): Promise<Settings>;
  /** The organization, or a usage error saying how to set one. */
  org(): Promise<string>;
  http(): Promise<HttpClient>;
  credentials(): Promise<CredentialChain>;
  hubSession(): Promise<HubSession>;
  accessTokens(): Promise<AccessTokenClient>;
  governance(): Promise<GovernanceClient>;
  /** The teams of --org, read once per run when first needed (names ↔ UUIDs). */
  teams(): Promise<TeamDirectory>;
  /** The container engine at --engine-host or DOCKER_HOST; the API version is negotiated on first use. */
  engine(): Promise<EngineClient>;
  /** OCI registries: credentials from the chain, tokens per registry and scope. */
  registry(): Promise<RegistryClient>;
  /** The profile's per-registry settings (`registry.HOST.*`), by lower-case host. */
  registrySettings(): Promise<Map<string, RegistrySettings>>;
}

export interface ContextDeps {
  io: IO;
  env: Record<string, string | undefined>;
  clock?: Clock;
  signal?: AbortSignal;
  /** Tests pass undici's MockAgent; by default a proxy-aware agent. */
  dispatcher?: import('undici').Dispatcher;
  /** Backoff base for retries (tests use 1 ms). */
  retryBaseMs?: number;
  prompter?: Prompter;
}

function memo<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= make();
    // A failed construction is not cached: the next call tries again.
    value.catch(() => {
      value = undefined;
    });
    return value;
  };
}

/**
 * The context of a command about to run, with what must be ready before its first request: the
 * --jq expression compiled (an invalid one is a usage error, exit 2, before anything is sent).
 */
export async function openContext(
  deps: ContextDeps,
  globals: GlobalOptions = DEFAULT_GLOBALS,
): Promise<Context> {
  if (globals.jq === undefined) return createContext(deps, globals);
  const { compileJq, jqSeconds } = await import('./output/jq.js');
  return createContext(deps, globals, {
    jq: await compileJq(globals.jq, jqSeconds(deps.env.HUBCTL_JQ_TIMEOUT)),
  });
}

export function createContext(
  deps: ContextDeps,
  globals: GlobalOptions = DEFAULT_GLOBALS,
  ready: { jq?: JqFilter } = {},
): Context {
  const { io, env } = deps;
  const clock = deps.clock ?? systemClock;
  const output = createOutput(io, {
    json: globals.json,
    quiet: globals.quiet,
    color: colorEnabled(io, env, globals.color),
    ...(ready.jq ? { jq: ready.jq } : {}),
  });
  const home = env.HOME || homedir();
  const configDir = () =>
    env.HUBCTL_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(home, '.config'), 'hubctl');
  const stateDir = () =>
    env.HUBCTL_CONFIG_DIR
      ? join(env.HUBCTL_CONFIG_DIR, 'state')
      : join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'hubctl');
  const debug = (line: string) => {
    if (globals.debug) io.stderr.write(`[debug] ${escapeControl(line)}\n`);
  };

  const config = memo(async () => (await import('./config/store.js')).openConfigStore(configDir()));
  // Settings and credential lookups read the files directly: store.ts is only loaded to write them.
  const reader = memo(async () => (await import('./config/read.js')).openConfigReader(configDir()));
  const settings = memo(async () => {
    const flags = { ...globals, username: undefined };
    const profile = profileName(flags, env);
    return resolveSettings(flags, env, (await reader()).getProfile(profile));
  });
  const registrySettings = memo(async () => {
    const { registrySettingsOf } = await import('./config/registry-settings.js');
    return registrySettingsOf((await reader()).getProfile((await settings()).profile));
  });
  const http = memo(async () => {
    // The V8 flag undici's parser needs, set before the HTTP layer compiles (src/http/liftoff.ts).
    if (!deps.dispatcher) (await import('./http/liftoff.js')).keepParserOnBaselineBeforeHttp();
    const { createHttpClient } = await import('./http/client.js');
    const perHost = await registrySettings();
    const caFiles = new Map(
      [...perHost].filter(([, s]) => s.caFile).map(([h, s]) => [h, s.caFile as string]),
    );
    return createHttpClient({
      ...(caFiles.size > 0 ? { caFileFor: (url: URL) => caFiles.get(url.host.toLowerCase()) } : {}),
      userAgent: `hubctl/${VERSION} node/${process.versions.node}`,
      clock,
      debug: globals.debug ? debug : undefined,
      caFile: globals.caFile,
      env,
      dispatcher: deps.dispatcher,
      retryBaseMs: deps.retryBaseMs,
      timeoutMs: httpTimeoutMs(env.HUBCTL_HTTP_TIMEOUT),
    });
  });
  const engine = memo(async () => {
    const [{ engineAddress }, { checkPinnedVersion }, { createEngineClient }, { engineDispatcher }] =
      await Promise.all([
        import('./api/engine/address.js'),
        import('./api/engine/api-version.js'),
        import('./api/engine/client.js'),
        import('./http/engine-transport.js'),
      ]);
    const address = engineAddress(globals.engineHost, env);
    const pinned = env.DOCKER_API_VERSION ? checkPinnedVersion(env.DOCKER_API_VERSION) : undefined;
    const { createHttpClient } = await import('./http/client.js');
    const http = createHttpClient({
      userAgent: `hubctl/${VERSION} node/${process.versions.node}`,
      clock,
      debug: globals.debug ? debug : undefined,
      dispatcher: engineDispatcher(address.transport),
      retryBaseMs: deps.retryBaseMs,
      timeoutMs: httpTimeoutMs(env.HUBCTL_HTTP_TIMEOUT),
    });
    return createEngineClient({ http, address, pinned, timeoutMs: httpTimeoutMs(env.HUBCTL_HTTP_TIMEOUT) });
  });
  const credentials = memo(async () => {
    const { createCredentialChain } = await import('./auth/chain.js');
    const store = await reader();
    return createCredentialChain({ env, settings: await settings(), store: () => store });
  });
  const hubSession = memo(async () => {
    const { createHubSession } = await import('./auth/hub-session.js');
    const { createJwtCache } = await import('./auth/jwt-cache.js');
    const { readJwtCacheFile, readJwtMacKey } = await import('./config/read.js');
    const chain = await credentials();
    const { profile, baseUrl, governanceUrl } = await settings();
    // HUBCTL_JWT_CACHE=off keeps JWTs in memory only (and is the bench's baseline).
    const cache =
      env.HUBCTL_JWT_CACHE === 'off'
        ? undefined
        : createJwtCache({
            profile,
            baseUrl,
            read: () => readJwtCacheFile(configDir()),
            macKey: () => readJwtMacKey(configDir()),
            writer: config,
            debug,
          });
    return createHubSession({
      http: await http(),
      clock,
      baseUrl,
      alsoTrusted: [new URL(governanceUrl).origin],
      credential: chain.hub,
      cache,
    });
  });
  const org = async () => {
    const value = (await settings()).org;
    if (!value) {
      throw new UsageError('no organization is set', {
        hint: 'Pass --org NAME, set HUBCTL_ORG, or run `hubctl config set org NAME`.',
      });
    }
    return value;
  };

  const registry = memo(async () => {
    const { RegistryClient } = await import('./api/registry/client.js');
    return new RegistryClient({
      http: await http(),
      clock,
      plainHttpHosts: [
        ...globals.plainHttp,
        ...[...(await registrySettings())].flatMap(([host, s]) => [
          ...(s.plainHttp ? [host] : []),
          ...(s.mirror?.plainHttp ? [s.mirror.host] : []),
        ]),
      ],
      signal: deps.signal,
      credentials: async (host) => {
        const cred = await (await credentials()).registry(host.toLowerCase());
        return cred
          ? { username: cred.username, secret: cred.secret, identityToken: cred.identityToken }
          : undefined;
      },
    });
  });

  return {
    io,
    env,
    clock,
    globals,
    output,
    prompt: deps.prompter ?? createPrompter(io),
    signal: deps.signal ?? new AbortController().signal,
    runtime: { node: process.version, platform: `${process.platform}/${process.arch}` },
    configDir,
    stateDir,
    debug,
    readStdin: () => readAll(io.stdin),
    config,
    settings,
    org,
    http,
    credentials,
    hubSession,
    engine,
    accessTokens: memo(async () => {
      const { createAccessTokenClient } = await import('./api/access-tokens.js');
      return createAccessTokenClient(await hubSession(), (await settings()).baseUrl);
    }),
    governance: memo(async () => {
      const { createGovernanceClient } = await import('./api/governance.js');
      const orgName = await org();
      return createGovernanceClient(await hubSession(), (await settings()).governanceUrl, orgName);
    }),
    teams: memo(async () => {
      const { createTeamClient, TeamDirectory } = await import('./api/teams.js');
      const orgName = await org();
      return new TeamDirectory(createTeamClient(await hubSession(), (await settings()).baseUrl, orgName));
    }),
    registry,
    registrySettings,
  };
}

/** HUBCTL_HTTP_TIMEOUT: seconds without a byte before a request or an answer is given up (default 30). */
function httpTimeoutMs(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(`HUBCTL_HTTP_TIMEOUT must be a number of seconds from 0 to 3600 (got "${value}")`);
  }
  return Math.round(seconds * 1000);
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
