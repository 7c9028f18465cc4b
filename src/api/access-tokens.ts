// The hub's access-token API (interface.md "Access tokens", decisions §5), with the live API's
// GET/PATCH/DELETE /v2/access-tokens/{uuid}.
import type { HubSession } from '../auth/hub-session.js';
import { ApiError, AuthError } from '../errors.js';
import { nextPageUrl, paginate } from '../http/paginate.js';
import { pathSegment, readAnswer } from './answer.js';
import {
  type AccessToken,
  AccessTokenAnswer,
  type AccessTokenPage,
  AccessTokenPageAnswer,
  CreatedAccessTokenAnswer,
} from './schemas.js';

export type { AccessToken, AccessTokenPage } from './schemas.js';

export interface CreateAccessTokenRequest {
  token_label: string;
  scopes: string[];
  expires_at?: string;
}

export interface AccessTokenClient {
  create(body: CreateAccessTokenRequest): Promise<AccessToken>;
  listPage(page: number, pageSize: number): Promise<AccessTokenPage>;
  listAll(pageSize?: number): AsyncGenerator<AccessToken>;
  get(uuid: string): Promise<AccessToken>;
  update(uuid: string, patch: { is_active?: boolean; token_label?: string }): Promise<AccessToken>;
  delete(uuid: string): Promise<void>;
}

const PAT_JWT_REFUSAL = /issued from personal access token/i;
/**
 * `token list --all` stops past these: an account holds a few dozen tokens, the hub's own limits
 * are far below 10,000, and 1,000 pages leave room for a server that pages by 10.
 */
export const MAX_TOKEN_PAGES = 1_000;
export const MAX_TOKENS = 10_000;

export function createAccessTokenClient(session: HubSession, baseUrl: string): AccessTokenClient {
  const root = `${baseUrl}/v2/access-tokens`;

  // The live service refuses token management with a PAT-derived JWT (decisions §2): explain it.
  async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ApiError && err.status === 403 && PAT_JWT_REFUSAL.test(err.message)) {
        throw new AuthError(`${what}: token issued from personal access token is not allowed`, {
          hint: 'Managing access tokens needs a password login: `hubctl auth login` with your account password.',
          cause: err,
        });
      }
      throw err;
    }
  }

  const listPage = (page: number, pageSize: number) =>
    call('listing access tokens', async () => {
      const url = new URL(root);
      url.searchParams.set('page', String(page));
      url.searchParams.set('page_size', String(pageSize));
      const res = await session.request({ url, what: 'listing access tokens' });
      return readAnswer(res, AccessTokenPageAnswer, 'listing access tokens');
    });

  return {
    create: (body) =>
      call('creating an access token', async () => {
        const res = await session.request({
          method: 'POST',
          url: root,
          json: body,
          what: 'creating an access token',
        });
        return readAnswer(res, CreatedAccessTokenAnswer, 'creating an access token');
      }),
    listPage,
    async *listAll(pageSize = 100) {
      // `next` is an absolute link; follow it (on the hub's own origin only) rather than counting pages.
      const what = 'listing access tokens';
      yield* paginate<AccessToken>(
        async (cursor) => {
          if (!cursor) {
            const first = await listPage(1, pageSize);
            return { items: first.results, next: first.next && nextPageUrl(first.next, root, what) };
          }
          const res = await call(what, () => session.request({ url: cursor, what }));
          const page = await readAnswer(res, AccessTokenPageAnswer, what);
          return { items: page.results, next: page.next && nextPageUrl(page.next, res.url, what) };
        },
        { host: new URL(root).host, what, maxPages: MAX_TOKEN_PAGES, maxItems: MAX_TOKENS },
      );
    },
    get: (uuid) =>
      call(`reading access token ${uuid}`, async () => {
        const res = await session.request({
          url: `${root}/${pathSegment(uuid)}`,
          what: `reading access token ${uuid}`,
        });
        return readAnswer(res, AccessTokenAnswer, `reading access token ${uuid}`);
      }),
    update: (uuid, patch) =>
      call(`updating access token ${uuid}`, async () => {
        const res = await session.request({
          method: 'PATCH',
          url: `${root}/${pathSegment(uuid)}`,
          json: patch,
          what: `updating access token ${uuid}`,
        });
        return readAnswer(res, AccessTokenAnswer, `updating access token ${uuid}`);
      }),
    delete: (uuid) =>
      call(`deleting access token ${uuid}`, async () => {
        const res = await session.request({
          method: 'DELETE',
          url: `${root}/${pathSegment(uuid)}`,
          what: `deleting access token ${uuid}`,
        });
        await res.dump();
      }),
  };
}
