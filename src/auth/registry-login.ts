// Checks a registry credential before it is stored: ping /v2/, follow the challenge, and ask the
// token service (Bearer) or the registry itself (Basic) to accept the credential.
import { ApiError, AuthError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { tokenRealmUrl } from '../http/origin.js';
import { parseWwwAuthenticate } from '../http/www-authenticate.js';
import type { Credential } from './chain.js';

export async function verifyRegistryCredential(
  http: HttpClient,
  baseUrl: string,
  credential: Credential,
): Promise<void> {
  const basic = `Basic ${Buffer.from(`${credential.username}:${credential.secret}`).toString('base64')}`;
  const what = `checking the credential of ${credential.username} at ${new URL(baseUrl).host}`;
  const ping = await http.request({ url: `${baseUrl}/v2/`, okStatuses: [200, 401], what });
  await ping.dump();
  if (ping.status === 200) return;
  const challenges = parseWwwAuthenticate(ping.headers['www-authenticate']);
  const bearer = challenges.find((c) => c.scheme === 'Bearer');
  try {
    if (bearer?.params.realm) {
      const url = tokenRealmUrl(bearer.params.realm, baseUrl, {
        registry: new URL(baseUrl).host,
        withCredential: true,
      });
      if (bearer.params.service) url.searchParams.set('service', bearer.params.service);
      url.searchParams.set('account', credential.username);
      const res = await http.request({ url, credential: { origin: url.origin, authorization: basic }, what });
      await res.dump();
      return;
    }
    const res = await http.request({
      url: `${baseUrl}/v2/`,
      credential: { origin: new URL(baseUrl).origin, authorization: basic },
      what,
    });
    await res.dump();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      throw new AuthError(`the registry refused the credential of ${credential.username}`, {
        hint: 'Check the user name and the password or access token.',
        cause: err,
      });
    }
    throw err;
  }
}
