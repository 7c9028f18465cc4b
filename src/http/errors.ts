// Error bodies of the three services, read into one typed error:
//   governance {error:{code,message}}, hub {message, errinfo, detail}, registry {errors:[{code,message,detail}]}.
import { ApiError } from '../errors.js';
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

export function parseErrorBody(text: string): ParsedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    return { apiCode: str(e.code), message: str(e.message) };
  }
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    const e = b.errors[0] as Record<string, unknown>;
    const detail = e.detail && typeof e.detail !== 'object' ? ` (${String(e.detail)})` : '';
    return { apiCode: str(e.code), message: str(e.message) && `${str(e.message)}${detail}` };
  }
  if (typeof b.message === 'string' || typeof b.detail === 'string') {
    const parts = [str(b.message), str(b.detail)].filter(Boolean);
    return { message: parts.join(': ') };
  }
  return {};
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

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
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
      return err instanceof Error && /longer than/.test(message) ? message : 'the answer stalled';
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
