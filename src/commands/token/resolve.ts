// Token commands take a UUID or a label (as policies take names): a label must name exactly one
// token; several are listed and refused (exit 2), none is "not found" (exit 5).
import type { AccessToken, AccessTokenClient } from '../../api/access-tokens.js';
import { NotFoundError, UsageError } from '../../errors.js';
import { isUuid } from './values.js';

/** How many candidates an ambiguous label lists before "and N more". */
const SHOWN = 10;

export async function resolveTokenUuid(client: AccessTokenClient, ref: string): Promise<string> {
  return isUuid(ref) ? ref : (await findByLabel(client, ref)).uuid;
}

/** The token itself, fetched by UUID or found by label. */
export async function resolveToken(client: AccessTokenClient, ref: string): Promise<AccessToken> {
  return isUuid(ref) ? client.get(ref) : findByLabel(client, ref);
}

async function findByLabel(client: AccessTokenClient, label: string): Promise<AccessToken> {
  const matches: AccessToken[] = [];
  for await (const token of client.listAll()) if (token.token_label === label) matches.push(token);
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new NotFoundError(`no access token is labelled "${label}"`, {
      hint: '`hubctl token list --all` shows the labels.',
    });
  }
  const lines = matches
    .slice(0, SHOWN)
    .map((t) => `  ${t.uuid}  ${t.is_active ? 'active' : 'inactive'}  created ${t.created_at}`);
  if (matches.length > SHOWN) lines.push(`  … and ${matches.length - SHOWN} more`);
  throw new UsageError(`the label "${label}" names ${matches.length} tokens:\n${lines.join('\n')}`, {
    hint: 'Name the token by its UUID.',
  });
}
