// The hub API's personal access token endpoints: create, list (Django-style pages), get, patch, delete.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hubError, isRecord, isStringArray, send } from './http.js';
import { type AccessTokenRecord, type HubState, KNOWN_SCOPES } from './state.js';

export const PAT_PREFIX = 'hub_pat_';
export const OAT_PREFIX = 'hub_oat_';
const MAX_LABEL = 100;
const MAX_PAGE_SIZE = 100;

export const newPatSecret = (prefix = PAT_PREFIX): string => prefix + randomBytes(20).toString('base64url');
export const newOatSecret = (prefix = OAT_PREFIX): string => prefix + randomBytes(20).toString('base64url');

/** ISO 8601 UTC with microseconds, as the hub writes `created_at`. */
export function microsIso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** `hub_pat_` + stars + the last four characters. */
export function maskSecret(secret: string): string {
  const cut = /^[a-z]+_[a-z]+_/.exec(secret)?.[0].length ?? 0;
  return `${secret.slice(0, cut)}${'*'.repeat(Math.max(4, secret.length - cut - 4))}${secret.slice(-4)}`;
}

export function tokenView(t: AccessTokenRecord, full: boolean): Record<string, unknown> {
  const { owner: _owner, ...wire } = t;
  return { ...wire, scopes: [...t.scopes], token: full ? t.token : maskSecret(t.token) };
}

export interface NewTokenInit {
  owner: string;
  label: string;
  scopes: string[];
  expiresAt: string | null;
  nowMs: number;
  secret?: string;
  ip?: string;
  ua?: string;
  generatedBy?: string;
}

export function makeTokenRecord(init: NewTokenInit): AccessTokenRecord {
  return {
    uuid: randomUUID(),
    client_id: 'HUB',
    token_label: init.label,
    scopes: [...init.scopes],
    token: init.secret ?? newPatSecret(),
    is_active: true,
    created_at: microsIso(init.nowMs),
    expires_at: init.expiresAt,
    last_used: null,
    generated_by: init.generatedBy ?? 'manual',
    creator_ip: init.ip ?? '127.0.0.1',
    creator_ua: init.ua ?? '',
    owner: init.owner,
  };
}

export function handleAccessTokens(
  state: HubState,
  req: IncomingMessage,
  res: ServerResponse,
  uuid: string | undefined,
  query: URLSearchParams,
  json: unknown,
  username: string,
  nowMs: number,
  patPrefix: string = PAT_PREFIX,
): undefined {
  const method = req.method ?? 'GET';
  const mine = state.accessTokens.filter((t) => t.owner === username);

  if (uuid === undefined) {
    if (method === 'POST') {
      if (!isRecord(json)) return hubError(res, 400, 'a JSON request body is required');
      const { token_label: label, scopes, expires_at: expiresAt } = json;
      if (typeof label !== 'string' || label.length === 0 || label.length > MAX_LABEL) {
        return hubError(res, 400, `token_label must be a string of 1 to ${MAX_LABEL} characters`);
      }
      if (!isStringArray(scopes) || scopes.length === 0) {
        return hubError(res, 400, 'scopes must be a non-empty array of strings');
      }
      const badScope = scopes.find((s) => !(KNOWN_SCOPES as readonly string[]).includes(s));
      if (badScope !== undefined) return hubError(res, 400, `unknown scope "${badScope}"`);
      let expires: string | null = null;
      if (expiresAt !== undefined && expiresAt !== null) {
        const t = typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN;
        if (Number.isNaN(t)) return hubError(res, 400, 'expires_at must be an ISO 8601 date');
        if (t <= nowMs) return hubError(res, 400, 'expires_at must be in the future');
        expires = new Date(t).toISOString();
      }
      const ua = req.headers['user-agent'];
      const record = makeTokenRecord({
        owner: username,
        label,
        scopes,
        expiresAt: expires,
        nowMs,
        secret: newPatSecret(patPrefix),
        ip: req.socket.remoteAddress ?? '127.0.0.1',
        ua: typeof ua === 'string' ? ua : '',
      });
      state.accessTokens.push(record);
      return send(res, 201, tokenView(record, true));
    }
    if (method === 'GET') {
      const page = parsePositiveInt(query.get('page'), 1);
      const pageSize = parsePositiveInt(query.get('page_size'), 10);
      if (page === undefined) return hubError(res, 400, 'page must be a positive integer');
      if (pageSize === undefined || pageSize > MAX_PAGE_SIZE) {
        return hubError(res, 400, `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`);
      }
      const lastPage = Math.max(1, Math.ceil(mine.length / pageSize));
      if (page > lastPage) return hubError(res, 400, 'Invalid page.');
      const base = `http://${req.headers.host ?? '127.0.0.1'}/v2/access-tokens`;
      const link = (p: number) => `${base}?page=${p}&page_size=${pageSize}`;
      return send(res, 200, {
        active_count: mine.filter((t) => t.is_active).length,
        count: mine.length,
        next: page < lastPage ? link(page + 1) : null,
        previous: page > 1 ? link(page - 1) : null,
        results: mine.slice((page - 1) * pageSize, page * pageSize).map((t) => tokenView(t, false)),
      });
    }
    return hubError(res, 405, `method ${method} not allowed`);
  }

  const record = mine.find((t) => t.uuid === uuid);
  if (!record) return hubError(res, 404, `access token ${uuid} not found`);
  if (method === 'GET') return send(res, 200, tokenView(record, false));
  if (method === 'DELETE') {
    state.accessTokens.splice(state.accessTokens.indexOf(record), 1);
    return send(res, 204);
  }
  if (method === 'PATCH') {
    if (!isRecord(json)) return hubError(res, 400, 'a JSON request body is required');
    const { is_active: active, token_label: label } = json;
    if (active === undefined && label === undefined) {
      return hubError(res, 400, 'at least one of is_active and token_label must be present');
    }
    if (active !== undefined && typeof active !== 'boolean')
      return hubError(res, 400, 'is_active must be a boolean');
    if (
      label !== undefined &&
      (typeof label !== 'string' || label.length === 0 || label.length > MAX_LABEL)
    ) {
      return hubError(res, 400, `token_label must be a string of 1 to ${MAX_LABEL} characters`);
    }
    if (typeof active === 'boolean') record.is_active = active;
    if (typeof label === 'string') record.token_label = label;
    return send(res, 200, tokenView(record, false));
  }
  return hubError(res, 405, `method ${method} not allowed`);
}

function parsePositiveInt(v: string | null, fallback: number): number | undefined {
  if (v === null) return fallback;
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}
