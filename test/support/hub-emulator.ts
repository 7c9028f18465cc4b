// The hub emulator: one node:http server on 127.0.0.1 that speaks, with the neutral names of
// interface.md, the hub token exchange, the access-token endpoints, the eight governance
// operations and a registry token service (the realm for a real registry started by
// test/support/registry.ts). It records every request and can inject faults.
//
//   const hub = await startHubEmulator();
//   hub.url                      // http://127.0.0.1:PORT  ({base_url}; governance base is `${url}/v2`)
//   await hub.close();
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  handleAccessTokens,
  makeTokenRecord,
  newOatSecret,
  newPatSecret,
  OAT_PREFIX,
  PAT_PREFIX,
} from './hub-emulator/access-tokens.js';
import { createCredentials } from './hub-emulator/credentials.js';
import { type GovernanceContext, handleGovernance } from './hub-emulator/governance.js';
import { handleGroups } from './hub-emulator/groups.js';
import {
  type Fault,
  type FaultMatcher,
  FaultQueue,
  type FaultStep,
  govError,
  hubError,
  type RecordedRequest,
  readBody,
  send,
  sleep,
} from './hub-emulator/http.js';
import { createSigningMaterial } from './hub-emulator/jwt.js';
import { handleRegistryToken } from './hub-emulator/registry-token.js';
import {
  DEFAULT_ORGS,
  DEFAULT_USERS,
  type HubState,
  type OrgSeed,
  type StoredPolicy,
  seedState,
  type UserSeed,
} from './hub-emulator/state.js';

export { TOKEN_SOURCE_CLAIM } from './hub-emulator/credentials.js';
export { ACTION_DOMAINS, policyDomain } from './hub-emulator/governance.js';
export type { Fault, FaultMatcher, FaultStep, RecordedRequest } from './hub-emulator/http.js';
export { decodeJwt } from './hub-emulator/jwt.js';
export type { RegistryAccess } from './hub-emulator/registry-token.js';
export type {
  AccessTokenRecord,
  EmulatorGroup,
  EmulatorOrg,
  EmulatorUser,
  HubState,
  OrgSeed,
  StoredPolicy,
  StoredRule,
  UserSeed,
} from './hub-emulator/state.js';
export {
  ACME_TEAM_NAMES,
  ACME_TEAMS,
  DEFAULT_ORGS,
  DEFAULT_USERS,
  KNOWN_SCOPES,
} from './hub-emulator/state.js';
export { OAT_PREFIX, PAT_PREFIX };

export interface HubEmulatorOptions {
  /** Users (default: alice / alice-password and bob / bob-password). */
  users?: UserSeed[];
  /** Organizations (default: `acme` with alice and two teams, entitled; `nogov` not entitled). */
  orgs?: OrgSeed[];
  /** Field of the token-exchange answer that carries the JWT (default `access_token`). */
  tokenField?: 'access_token' | 'token';
  /** Hub JWT lifetime in seconds (default 600; negative issues expired tokens). */
  jwtLifetime?: number;
  /** Answer the policy list in pages of this size, with `next_page_token`. */
  policyPageSize?: number;
  /** Milliseconds added before every answer (benches: a distant server). */
  latencyMs?: number;
  /** Policies per organization (default 100). */
  maxPolicies?: number;
  /** Rules per policy (default 250). */
  maxRules?: number;
  /** Registry token lifetime in seconds (default 300). */
  registryTokenLifetime?: number;
  /** Registry `service` (JWT aud); default `hub-emulator-registry`. */
  registryService?: string;
  /** Registry token issuer (JWT iss); default `hub-emulator`. */
  registryIssuer?: string;
  /** What a registry token request without credentials gets (default `pull`). */
  registryAnonymous?: 'pull' | 'none';
  /** Clock for hub JWTs and timestamps, in ms since the epoch (default Date.now). Registry tokens use real time. */
  clock?: () => number;
  /** `pol_0001`, `rule_0001`… instead of random ids (for stable snapshots). */
  sequentialIds?: boolean;
  /** Prefixes of new PATs and OATs: `hub_pat_`/`hub_oat_` (neutral, default) or `dckr_pat_`/`dckr_oat_` (live). */
  tokenPrefixes?: 'neutral' | 'live';
}

export interface RuleSeed {
  id?: string;
  name: string;
  actions: string[];
  decision: string;
  /** Absent on an HTTP rule, which has `http_resources` instead. */
  resources?: string[];
  [extra: string]: unknown;
}

export interface PolicySeed {
  name: string;
  teams?: string[];
  /** Default `allowlist_v0`. */
  type?: string;
  /** Rules stored as given (unknown actions and extra fields allowed); ids are added when missing. */
  rules?: RuleSeed[];
  /** Domain to report when no rule has a known action. */
  domain?: string;
  /** Rule set of a non-allowlist policy, answered under a property named after `type`. */
  ruleSet?: unknown;
  created_at?: string;
  updated_at?: string;
}

export interface HubEmulator {
  /** `http://127.0.0.1:PORT` — the hub `{base_url}`. */
  url: string;
  /** `${url}/v2` — the governance base. */
  governanceUrl: string;
  port: number;
  state: HubState;
  requests: RecordedRequest[];
  /** The registry config values pointing at this emulator's token service. */
  registryAuth: { realm: string; service: string; issuer: string; certPath: string };
  /** Docker identity tokens the registry token service accepts (POST refresh_token grant), to account. */
  registryRefreshTokens: Map<string, string>;
  clearRequests(): void;
  /** Recorded requests whose path equals `path` (or matches it), optionally of one method. */
  requestsTo(path: string | RegExp, method?: string): RecordedRequest[];
  inject(matcher: FaultMatcher, steps: FaultStep[]): Fault;
  clearFaults(): void;
  setJwtLifetime(seconds: number): void;
  setRegistryTokenLifetime(seconds: number): void;
  setTokenField(field: 'access_token' | 'token'): void;
  setPolicyPageSize(size: number | undefined): void;
  /** Milliseconds added before every answer from now on. */
  setLatency(ms: number): void;
  /** Makes every hub JWT issued so far invalid (401), as a server-side revocation would. */
  invalidateJwts(): void;
  /** A hub JWT for a user, as the token exchange would issue it. */
  issueJwt(username: string, source?: 'password' | 'pat' | 'oat'): string;
  /** A new active personal access token of `username`; returns the secret. */
  createPat(
    username: string,
    opts?: { scopes?: string[]; label?: string; expiresAt?: string | null; active?: boolean },
  ): string;
  /** A new organization access token of `org`; returns the secret. */
  createOat(org: string): string;
  /** Puts a policy straight into the state (bypassing the API's checks) and returns it. */
  seedPolicy(org: string, seed: PolicySeed): StoredPolicy;
  close(): Promise<void>;
}

export async function startHubEmulator(opts: HubEmulatorOptions = {}): Promise<HubEmulator> {
  const clock = opts.clock ?? Date.now;
  const patPrefix = opts.tokenPrefixes === 'live' ? 'dckr_pat_' : PAT_PREFIX;
  const oatPrefix = opts.tokenPrefixes === 'live' ? 'dckr_oat_' : OAT_PREFIX;
  const material = createSigningMaterial('hub-emulator token signer');
  const state = seedState(opts.users ?? DEFAULT_USERS, opts.orgs ?? DEFAULT_ORGS, clock());

  const settings = {
    tokenField: opts.tokenField ?? 'access_token',
    jwtLifetime: opts.jwtLifetime ?? 600,
    registryLifetime: opts.registryTokenLifetime ?? 300,
    epoch: 0,
  };
  const requests: RecordedRequest[] = [];
  let latencyMs = opts.latencyMs ?? 0;
  const faults = new FaultQueue();
  const counters = { pol_: 0, rule_: 0 };
  let lastStampMs = 0;

  const gov: GovernanceContext = {
    state,
    stamp() {
      lastStampMs = Math.max(clock(), lastStampMs + 1);
      return new Date(lastStampMs).toISOString();
    },
    newId(prefix) {
      if (opts.sequentialIds) {
        counters[prefix] += 1;
        return `${prefix}${String(counters[prefix]).padStart(4, '0')}`;
      }
      return prefix + randomBytes(10).toString('hex');
    },
    maxPolicies: opts.maxPolicies ?? 100,
    maxRules: opts.maxRules ?? 250,
    policyPageSize: opts.policyPageSize,
  };

  const creds = createCredentials({ state, material, clock, settings });

  const registryService = opts.registryService ?? 'hub-emulator-registry';
  const registryRefreshTokens = new Map<string, string>();
  const registryIssuer = opts.registryIssuer ?? 'hub-emulator';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<undefined> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    let json: unknown;
    let badJson = false;
    if (body.length > 0) {
      try {
        json = JSON.parse(body);
      } catch {
        badJson = true;
      }
    }
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: { ...req.headers },
      body,
      ...(json === undefined ? {} : { json }),
    };
    requests.push(record);
    if (latencyMs > 0) await sleep(latencyMs);

    const step = faults.take(method, url.pathname);
    if (step) {
      record.injected = true;
      if ('drop' in step) {
        req.socket.destroy();
        return;
      }
      if (step.delayMs) await sleep(step.delayMs);
      if ('status' in step) return send(res, step.status, step.body, step.headers);
    }

    const path = url.pathname.replace(/\/+$/, '') || '/';
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);

    if (path === '/registry/token') {
      return handleRegistryToken(
        {
          material,
          issuer: registryIssuer,
          service: registryService,
          lifetime: settings.registryLifetime,
          anonymous: opts.registryAnonymous ?? 'pull',
          authenticate: creds.registryCredentials,
          refreshTokens: registryRefreshTokens,
        },
        req,
        res,
        url.searchParams,
        body,
      );
    }
    if (path === '/v2/auth/token') {
      if (method !== 'POST') return hubError(res, 405, `method ${method} not allowed`);
      if (badJson) return hubError(res, 400, 'request body is not valid JSON');
      return creds.exchange(res, json);
    }
    if (segments[0] === 'v2' && segments[1] === 'access-tokens' && segments.length <= 3) {
      const caller = creds.bearerCaller(req);
      if (!caller) return hubError(res, 401, 'authentication required');
      if (caller.source === 'pat')
        return hubError(res, 403, 'token issued from personal access token is not allowed');
      if (caller.source === 'oat') {
        return hubError(res, 403, 'token issued from organization access token is not allowed');
      }
      if (badJson) return hubError(res, 400, 'request body is not valid JSON');
      return handleAccessTokens(
        state,
        req,
        res,
        segments[2],
        url.searchParams,
        json,
        caller.sub,
        clock(),
        patPrefix,
      );
    }
    if (segments[0] === 'v2' && segments[1] === 'orgs' && segments[3] === 'groups' && segments.length <= 5) {
      const caller = creds.bearerCaller(req);
      if (!caller) return hubError(res, 401, 'authentication required');
      const host = req.headers.host ?? '127.0.0.1';
      return handleGroups(state, res, method, host, segments[2]!, segments[4], url.searchParams, caller);
    }
    if (
      segments[0] === 'v2' &&
      segments[1] === 'orgs' &&
      segments[3] === 'governance' &&
      segments[4] === 'policies'
    ) {
      const caller = creds.bearerCaller(req);
      if (!caller) return govError(res, 401, 'unauthenticated', 'missing or invalid credentials');
      if (badJson) return govError(res, 400, 'invalid_argument', 'request body is not valid JSON');
      return handleGovernance(gov, res, method, segments.slice(1), url.searchParams, json, caller);
    }
    return hubError(res, 404, `no route for ${method} ${url.pathname}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { code: 'internal', message: String(err) } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    governanceUrl: `${url}/v2`,
    port,
    state,
    requests,
    registryRefreshTokens,
    get registryAuth() {
      if (!material.cert) throw new Error(`hub emulator: ${material.certError}; registry tests need it`);
      return {
        realm: `${url}/registry/token`,
        service: registryService,
        issuer: registryIssuer,
        certPath: material.cert.certPath,
      };
    },
    clearRequests: () => {
      requests.length = 0;
    },
    requestsTo: (p, m) =>
      requests.filter(
        (r) =>
          (m === undefined || r.method === m.toUpperCase()) &&
          (typeof p === 'string' ? r.path === p : p.test(r.path)),
      ),
    inject: (matcher, steps) => faults.add(matcher, steps),
    clearFaults: () => faults.clear(),
    setJwtLifetime: (s) => {
      settings.jwtLifetime = s;
    },
    setRegistryTokenLifetime: (s) => {
      settings.registryLifetime = s;
    },
    setTokenField: (f) => {
      settings.tokenField = f;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    setPolicyPageSize: (n) => {
      gov.policyPageSize = n;
    },
    invalidateJwts: () => {
      settings.epoch += 1;
    },
    issueJwt: (username, source = 'password') => creds.issueJwt(username, source),
    createPat(username, o = {}) {
      if (!state.users.has(username)) throw new Error(`hub emulator: no user ${username}`);
      const record = makeTokenRecord({
        owner: username,
        label: o.label ?? 'test token',
        scopes: o.scopes ?? ['repo:admin'],
        expiresAt: o.expiresAt ?? null,
        nowMs: clock(),
        secret: newPatSecret(patPrefix),
        generatedBy: 'manual',
      });
      record.is_active = o.active ?? true;
      state.accessTokens.push(record);
      return record.token;
    },
    createOat(org) {
      const o = state.orgs.get(org);
      if (!o) throw new Error(`hub emulator: no organization ${org}`);
      const secret = newOatSecret(oatPrefix);
      o.oats.push(secret);
      return secret;
    },
    seedPolicy(org, seed) {
      const now = gov.stamp();
      const policy: StoredPolicy = {
        id: gov.newId('pol_'),
        name: seed.name,
        org,
        scope: { teams: [...(seed.teams ?? [])] },
        created_at: seed.created_at ?? now,
        updated_at: seed.updated_at ?? now,
        type: seed.type ?? 'allowlist_v0',
        rules: (seed.rules ?? []).map((r) => ({ ...structuredClone(r), id: r.id ?? gov.newId('rule_') })),
        ...(seed.domain === undefined ? {} : { domain: seed.domain }),
        ...(seed.ruleSet === undefined ? {} : { ruleSet: structuredClone(seed.ruleSet) }),
      };
      state.policies.push(policy);
      return policy;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      material.dispose();
    },
  };
}
