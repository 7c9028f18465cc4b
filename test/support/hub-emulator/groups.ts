// The hub API's teams, served as groups: `GET /v2/orgs/{org}/groups` (Django-style pages with
// `page`, `page_size`, `search`, `username`) and `GET /v2/orgs/{org}/groups/{name}`.
import type { ServerResponse } from 'node:http';
import type { Caller } from './governance.js';
import { hubError, send } from './http.js';
import type { HubState } from './state.js';

const MAX_PAGE_SIZE = 100;

function positiveInt(v: string | null, fallback: number): number | undefined {
  if (v === null) return fallback;
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}

export function handleGroups(
  state: HubState,
  res: ServerResponse,
  method: string,
  host: string,
  orgName: string,
  groupName: string | undefined,
  query: URLSearchParams,
  caller: Caller,
): undefined {
  if (method !== 'GET') return hubError(res, 405, `method ${method} not allowed`);
  const org = state.orgs.get(orgName);
  if (!org) return hubError(res, 404, `organization ${orgName} not found`);
  const allowed = caller.source === 'oat' ? caller.sub === org.name : org.members.includes(caller.sub);
  if (!allowed) return hubError(res, 403, `not a member of organization ${orgName}`);
  if (groupName !== undefined) {
    const group = org.groups.find((g) => g.name === groupName);
    return group ? send(res, 200, group) : hubError(res, 404, `group ${groupName} not found`);
  }
  const page = positiveInt(query.get('page'), 1);
  const pageSize = positiveInt(query.get('page_size'), 10);
  if (page === undefined) return hubError(res, 400, 'page must be a positive integer');
  if (pageSize === undefined || pageSize > MAX_PAGE_SIZE) {
    return hubError(res, 400, `page_size must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const search = query.get('search')?.toLowerCase();
  const username = query.get('username');
  const matching = org.groups.filter(
    (g) =>
      (search === undefined || g.name.toLowerCase().includes(search)) &&
      (username === null || org.members.includes(username)),
  );
  const lastPage = Math.max(1, Math.ceil(matching.length / pageSize));
  if (page > lastPage) return hubError(res, 404, 'Invalid page.');
  const link = (p: number) => {
    const u = new URL(`http://${host}/v2/orgs/${encodeURIComponent(orgName)}/groups`);
    u.searchParams.set('page', String(p));
    u.searchParams.set('page_size', String(pageSize));
    if (search !== undefined) u.searchParams.set('search', query.get('search')!);
    return u.toString();
  };
  return send(res, 200, {
    count: matching.length,
    next: page < lastPage ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results: matching.slice((page - 1) * pageSize, page * pageSize),
  });
}
