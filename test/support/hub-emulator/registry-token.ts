// The registry token service (the `realm` of the registry's Bearer challenge), issuing the JWTs
// that distribution 2.8 accepts: header {typ, alg: ES256, x5c: [standard base64 DER]}, claims
// iss/sub/aud (one string)/exp/nbf/iat/jti/access, signature raw r‖s.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send } from './http.js';
import { randomHex, type SigningMaterial, signJwt } from './jwt.js';

export type RegistryAction = 'pull' | 'push' | 'delete' | '*';

export interface RegistryAccess {
  type: string;
  name: string;
  actions: string[];
}

export interface RegistryTokenContext {
  material: SigningMaterial;
  issuer: string;
  service: string;
  /** Seconds; negative issues tokens that are already expired (the registry allows 60 s leeway). */
  lifetime: number;
  anonymous: 'pull' | 'none';
  /** What the credentials may do, or undefined when they are wrong. */
  authenticate(username: string, secret: string): { sub: string; actions: RegistryAction[] } | undefined;
  /** The account an OAuth2 refresh token (a docker identity token) belongs to. */
  refreshTokens: Map<string, string>;
}

interface Scope {
  type: string;
  name: string;
  actions: string[];
}

function parseScope(s: string): Scope | undefined {
  const first = s.indexOf(':');
  const last = s.lastIndexOf(':');
  if (first <= 0 || last === first) return undefined;
  return {
    type: s.slice(0, first),
    name: s.slice(first + 1, last),
    actions: s
      .slice(last + 1)
      .split(',')
      .filter(Boolean),
  };
}

function registryError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers = {},
): undefined {
  send(res, status, { errors: [{ code, message }], details: message }, headers);
}

export function handleRegistryToken(
  ctx: RegistryTokenContext,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  body = '',
): undefined {
  // POST: the OAuth2 form (grant_type=refresh_token); its fields stand in for the query's.
  let refreshed: { sub: string; actions: RegistryAction[] } | undefined;
  if (req.method === 'POST') {
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'refresh_token' || !form.get('client_id'))
      return registryError(res, 400, 'INVALID_REQUEST', 'unsupported grant');
    const user = ctx.refreshTokens.get(form.get('refresh_token') ?? '');
    refreshed = user === undefined ? undefined : { sub: user, actions: ['pull', 'push', 'delete'] };
    if (!refreshed) return registryError(res, 401, 'UNAUTHORIZED', 'invalid refresh token');
    query = new URLSearchParams();
    if (form.get('service')) query.set('service', form.get('service')!);
    if (form.get('scope')) query.set('scope', form.get('scope')!);
  } else if (req.method !== 'GET') return registryError(res, 405, 'UNSUPPORTED', 'method not allowed');
  const service = query.get('service');
  if (service !== null && service !== ctx.service) {
    return registryError(res, 400, 'INVALID_REQUEST', `unknown service "${service}"`);
  }
  const scopes: Scope[] = [];
  for (const raw of query
    .getAll('scope')
    .flatMap((s) => s.split(' '))
    .filter(Boolean)) {
    const sc = parseScope(raw);
    if (!sc) return registryError(res, 400, 'INVALID_REQUEST', `malformed scope "${raw}"`);
    scopes.push(sc);
  }
  const challenge = { 'www-authenticate': `Basic realm="${ctx.service} token service"` };
  const auth = req.headers.authorization ?? '';
  let sub = '';
  let allowed: RegistryAction[];
  if (refreshed) {
    sub = refreshed.sub;
    allowed = refreshed.actions;
  } else if (/^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const who = colon < 0 ? undefined : ctx.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
    if (!who) return registryError(res, 401, 'UNAUTHORIZED', 'incorrect username or password', challenge);
    sub = who.sub;
    allowed = who.actions;
  } else if (auth) {
    return registryError(res, 401, 'UNAUTHORIZED', 'unsupported authorization scheme', challenge);
  } else if (ctx.anonymous === 'none') {
    return registryError(res, 401, 'UNAUTHORIZED', 'authentication required', challenge);
  } else {
    allowed = ['pull'];
  }

  const access: RegistryAccess[] = scopes.map((sc) => {
    let actions: string[] = [];
    if (sc.type === 'repository') {
      actions = sc.actions.filter((a) =>
        a === '*'
          ? (['pull', 'push', 'delete'] as const).every((x) => allowed.includes(x))
          : allowed.includes(a as RegistryAction),
      );
    } else if (sc.type === 'registry' && sc.name === 'catalog' && sub !== '') {
      actions = sc.actions.filter((a) => a === '*');
    }
    return { type: sc.type, name: sc.name, actions: [...new Set(actions)] };
  });

  const cert = ctx.material.cert;
  if (!cert) return registryError(res, 500, 'UNKNOWN', `no registry token signer: ${ctx.material.certError}`);
  const now = Math.floor(Date.now() / 1000);
  const token = signJwt(
    { typ: 'JWT', x5c: [cert.derBase64] },
    {
      iss: ctx.issuer,
      sub,
      aud: ctx.service,
      exp: now + ctx.lifetime,
      nbf: now - 1,
      iat: now,
      jti: randomHex(16),
      access,
    },
    ctx.material.privateKey,
  );
  send(res, 200, {
    token,
    access_token: token,
    expires_in: ctx.lifetime,
    issued_at: new Date(now * 1000).toISOString(),
  });
}
