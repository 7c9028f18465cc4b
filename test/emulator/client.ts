// Tiny fetch helpers for the emulator's own tests.
import type { HubEmulator } from '../support/hub-emulator.js';

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: tests index into answers freely
  json: any;
}

export async function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === 'string'
          ? init.body
          : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body, json: body };
}

/** Exchanges a secret for a hub JWT and returns it. */
export async function login(
  hub: HubEmulator,
  identifier = 'alice',
  secret = 'alice-password',
): Promise<string> {
  const r = await call(`${hub.url}/v2/auth/token`, {
    method: 'POST',
    body: { identifier, password: secret },
  });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.json.access_token as string;
}
