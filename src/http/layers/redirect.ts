// Redirects: followed (at most five hops) for GET and HEAD unless the caller says otherwise, never
// for a request whose body carries a secret. Each hop goes through the layers below again, so the
// credential layer decides for each hop's origin whether the credential goes along.
import { NetworkError } from '../../errors.js';
import { redactUrl } from '../redact.js';
import { secretInBody } from './credential.js';
import { isRead, type Layer, type Outgoing, prefix } from './exchange.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

export function mayFollow(req: Outgoing): boolean {
  return (req.followRedirects ?? isRead(req.method)) && !secretInBody(req.credential);
}

export const followRedirects: Layer = (next) => async (req) => {
  const follow = mayFollow(req);
  let url = req.url;
  for (let redirects = 0; ; ) {
    const res = await next(url === req.url ? req : { ...req, url });
    if (!follow || !REDIRECT_STATUSES.has(res.status) || !res.headers.location) return res;
    await res.body.dump().catch(() => undefined);
    if (++redirects > MAX_REDIRECTS) {
      throw new NetworkError(`${prefix(req)}${req.method} ${redactUrl(req.url)}: too many redirects`);
    }
    url = new URL(res.headers.location, url);
  }
};
