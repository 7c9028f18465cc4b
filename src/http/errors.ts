// Error bodies of the three services, read into one typed error:
//   governance {error:{code,message}}, hub {message, errinfo, detail}, registry {errors:[{code,message,detail}]},
//   audit {error: "…"}.
import { ApiError } from '../errors.js';
import { BodyStalledError } from './body.js';
import { redactText } from './redact.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  409: 'conflict',
  429: 'too many requests',
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

export interface ParsedErrorBody {
  apiCode?: string;
  message?: string;
}

/** A server's words are shown, not trusted: this much of a message, and of a code, is enough. */
const MAX_MESSAGE = 500;
const MAX_CODE = 64;

/**
 * Reads whatever a failing server sent. Anything may come (null, arrays, numbers, nested junk, a
 * megabyte of text): what is not the documented shape is ignored, never thrown over, and what is
 * kept is cut short. Control characters are escaped where it is printed (src/cli.ts).
 */
export function parseErrorBody(text: string): ParsedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(body)) return {};
  if (isRecord(body.error)) {
    return { apiCode: code(body.error.code), message: str(body.error.message) };
  }
  // The audit API's `{"error": "<string>"}` (its 429 adds `code: "rate_limit_exceeded"`).
  if (typeof body.error === 'string') return { apiCode: code(body.code), message: str(body.error) };
  if (Array.isArray(body.errors) && isRecord(body.errors[0])) {
    const e = body.errors[0];
    const detail =
      typeof e.detail === 'string' || typeof e.detail === 'number' ? ` (${String(e.detail)})` : '';
    const message = str(e.message);
    return { apiCode: code(e.code), message: message && cut(`${message}${detail}`, MAX_MESSAGE) };
  }
  const parts = [str(body.message), str(body.detail)].filter(Boolean);
  return parts.length > 0 ? { message: cut(parts.join(': '), MAX_MESSAGE) } : {};
}

export function apiErrorFrom(
  status: number,
  text: string,
  context: { url?: string; what?: string } = {},
): ApiError {
  const parsed = parseErrorBody(text);
  const fallback = STATUS_TEXT[status] ?? `HTTP ${status}`;
  const core = parsed.apiCode
    ? `${parsed.apiCode}: ${parsed.message ?? fallback}`
    : (parsed.message ?? `the server answered ${status}${STATUS_TEXT[status] ? ` (${fallback})` : ''}`);
  const message = redactText(context.what ? `${context.what}: ${core}` : core);
  return new ApiError(message, { status, apiCode: parsed.apiCode, url: context.url });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? cut(v, MAX_MESSAGE) : undefined;
}

/** A code is a word (`limit_exceeded`, `MANIFEST_UNKNOWN`); anything else is no code. */
function code(v: unknown): string | undefined {
  return typeof v === 'string' && /^[A-Za-z0-9_.-]+$/.test(v) ? v.slice(0, MAX_CODE) : undefined;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The first `code` along an error's cause chain (undici wraps socket errors). */
export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A network failure in plain words; `reading` when it struck while the body was arriving. */
export function describeNetworkError(err: unknown, reading = false): string {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  const proxy = /^Proxy response \((\d+)\)/.exec(message);
  if (proxy) return `the proxy refused the connection (${proxy[1]})`;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return reading ? 'the connection was cut in the middle of the answer' : 'the connection was reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'UND_ERR_BODY_TIMEOUT':
      return err instanceof BodyStalledError || (err instanceof Error && /longer than/.test(message))
        ? message
        : 'the answer stalled';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timed out';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'the server certificate is not trusted (add its CA with --ca-file or NODE_EXTRA_CA_CERTS)';
    default:
      return message;
  }
}
