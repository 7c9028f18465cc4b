// The emulator's in-memory world: users, their access tokens, organizations with teams, and
// governance policies. Tests read and change it directly through `emulator.state`.
import { randomUUID } from 'node:crypto';

export interface EmulatorUser {
  username: string;
  password: string;
}

export interface AccessTokenRecord {
  uuid: string;
  client_id: string;
  token_label: string;
  scopes: string[];
  /** The full secret (`hub_pat_…`); responses mask it except at creation. */
  token: string;
  is_active: boolean;
  created_at: string;
  expires_at: string | null;
  last_used: string | null;
  generated_by: string;
  creator_ip: string;
  creator_ua: string;
  /** The user who owns it (not sent on the wire). */
  owner: string;
}

export interface EmulatorOrg {
  name: string;
  members: string[];
  /** Team UUIDs valid in `scope.teams`. */
  teams: string[];
  /** The teams as the groups API serves them (`/v2/orgs/{org}/groups`), one per UUID of `teams`. */
  groups: EmulatorGroup[];
  /** Whether the organization may use governance (403 permission_denied otherwise). */
  entitled: boolean;
  /** Organization access tokens (`hub_oat_…`) accepted by the token exchange with identifier = org name. */
  oats: string[];
}

/** A team, as the hub API's groups endpoints serve it. */
export interface EmulatorGroup {
  id: number;
  uuid: string;
  name: string;
  description: string;
  member_count: number;
  role?: string;
}

/** A rule as stored: `resources`, or `http_resources` for an HTTP rule. Seeded rules may carry unknown actions and extra fields. */
export interface StoredRule {
  id: string;
  name: string;
  actions: string[];
  decision: string;
  resources?: string[];
  http_resources?: { host: string; port?: number; path: string }[];
  [extra: string]: unknown;
}

export interface StoredPolicy {
  id: string;
  name: string;
  org: string;
  scope: { teams: string[] };
  created_at: string;
  updated_at: string;
  /** `allowlist_v0` for everything the API creates; seeded policies may be `cedar_v1`. */
  type: string;
  rules: StoredRule[];
  /** Domain to report when no rule has a known action (seeded policies only). */
  domain?: string;
  /** Rule set of a policy whose type is not `allowlist_v0`, returned as is under a property named after the type. */
  ruleSet?: unknown;
}

export interface HubState {
  users: Map<string, EmulatorUser>;
  orgs: Map<string, EmulatorOrg>;
  /** Access tokens in creation order. */
  accessTokens: AccessTokenRecord[];
  /** Policies of every organization in creation order. */
  policies: StoredPolicy[];
}

export interface UserSeed {
  username: string;
  password: string;
  /** PAT secrets this user owns (any prefix is accepted; `hub_pat_…` is the neutral one). */
  pats?: string[];
}

export interface OrgSeed {
  name: string;
  members: string[];
  teams?: string[];
  /** Names of `teams`, in the same order (default: team-1, team-2, …; acme: developers, ops). */
  teamNames?: string[];
  /** Default true. */
  entitled?: boolean;
  oats?: string[];
}

/** Team UUIDs of the default organization `acme`. */
export const ACME_TEAMS = [
  '6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b',
  '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
] as const;
/** Their names, in the same order. */
export const ACME_TEAM_NAMES = ['developers', 'ops'] as const;

export const DEFAULT_USERS: UserSeed[] = [
  { username: 'alice', password: 'alice-password' },
  { username: 'bob', password: 'bob-password' },
];

export const DEFAULT_ORGS: OrgSeed[] = [
  {
    name: 'acme',
    members: ['alice'],
    teams: [...ACME_TEAMS],
    teamNames: [...ACME_TEAM_NAMES],
    entitled: true,
  },
  { name: 'nogov', members: ['alice', 'bob'], teams: [], entitled: false },
];

export const KNOWN_SCOPES = ['repo:admin', 'repo:write', 'repo:read', 'repo:public_read'] as const;

/** A fresh state from seeds; each seeded PAT becomes an active `repo:admin` token without expiry. */
export function seedState(users: UserSeed[], orgs: OrgSeed[], nowMs: number): HubState {
  const state: HubState = { users: new Map(), orgs: new Map(), accessTokens: [], policies: [] };
  for (const u of users) {
    state.users.set(u.username, { username: u.username, password: u.password });
    for (const secret of u.pats ?? []) {
      state.accessTokens.push({
        uuid: randomUUID(),
        client_id: 'HUB',
        token_label: 'seeded',
        scopes: ['repo:admin'],
        token: secret,
        is_active: true,
        created_at: new Date(nowMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
        expires_at: null,
        last_used: null,
        generated_by: 'manual',
        creator_ip: '127.0.0.1',
        creator_ua: '',
        owner: u.username,
      });
    }
  }
  for (const o of orgs) {
    state.orgs.set(o.name, {
      name: o.name,
      members: [...o.members],
      teams: [...(o.teams ?? [])],
      groups: (o.teams ?? []).map((uuid, i) => ({
        id: 1000 + i,
        uuid,
        name: o.teamNames?.[i] ?? `team-${i + 1}`,
        description: '',
        member_count: o.members.length,
        role: 'member',
      })),
      entitled: o.entitled ?? true,
      oats: [...(o.oats ?? [])],
    });
  }
  return state;
}
