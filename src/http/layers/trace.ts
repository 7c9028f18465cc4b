// The --debug trace: one line per request and response line and header, secrets redacted
// (../redact.ts), and the time the answer's headers took.
import type { Clock } from '../../clock.js';
import { redactHeaders, redactJson, redactUrl } from '../redact.js';
import type { Layer } from './exchange.js';

export function trace(debug: ((line: string) => void) | undefined, clock: Clock): Layer {
  return (next) => {
    if (!debug) return next;
    return async (req) => {
      const started = clock.now();
      debug(`> ${req.method} ${redactUrl(req.url)}`);
      for (const [k, v] of Object.entries(redactHeaders(req.headers))) debug(`> ${k}: ${v}`);
      if (req.json !== undefined) debug(`> ${JSON.stringify(redactJson(req.json))}`);
      const res = await next(req);
      debug(`< ${res.status} ${redactUrl(req.url)} (${clock.now() - started} ms)`);
      for (const [k, v] of Object.entries(redactHeaders(res.headers))) debug(`< ${k}: ${v}`);
      return res;
    };
  };
}
