var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var stdin_exports = {};
__export(stdin_exports, {
  apiErrorFrom: () => apiErrorFrom,
  redactHeaders: () => redactHeaders,
  redactJson: () => redactJson,
  redactUrl: () => redactUrl
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var SECRET_HEADERS = /* @__PURE__ */ new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-registry-auth"
]);
var SECRET_KEYS = /^(password|secret|token|access_token|refresh_token|id_token|identitytoken|auth|client_secret)$/i;
var SECRET_PATTERNS = [
  // (not a challenge's parameters: `Bearer realm="…"` is no credential)
  /\b(Bearer|Basic)\s+(?![A-Za-z_]+=")[A-Za-z0-9._~+/=-]+/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /\b(hub|dckr)_(pat|oat)_[A-Za-z0-9_-]+/g
];
var REDACTED = "***";
function redactHeaders(headers) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === void 0) continue;
    const text = Array.isArray(value) ? value.join(", ") : value;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? redactAuthValue(text) : redactText(text);
  }
  return out;
}
function redactAuthValue(value) {
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}
function redactUrl(url) {
  let parsed;
  try {
    parsed = new URL(String(url));
  } catch {
    return redactText(String(url));
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEYS.test(key)) parsed.searchParams.set(key, REDACTED);
  }
  return parsed.toString();
}
function redactJson(value) {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEYS.test(k) && v !== null && v !== "" ? REDACTED : redactJson(v);
    }
    return out;
  }
  return typeof value === "string" ? redactText(value) : value;
}
function redactText(text) {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(
      pattern,
      (_match, scheme) => scheme === "Bearer" || scheme === "Basic" ? `${scheme} ${REDACTED}` : REDACTED
    );
  }
  return out;
}
var STATUS_TEXT = {
  400: "bad request",
  401: "unauthorized",
  403: "forbidden",
  404: "not found",
  405: "method not allowed",
  409: "conflict",
  429: "too many requests",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
  504: "gateway timeout"
};
var MAX_MESSAGE = 500;
var MAX_CODE = 64;
function parseErrorBody(text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(body)) return {};
  if (isRecord(body.error)) {
    return { apiCode: code(body.error.code), message: str(body.error.message) };
  }
  if (Array.isArray(body.errors) && isRecord(body.errors[0])) {
    const e = body.errors[0];
    const detail = typeof e.detail === "string" || typeof e.detail === "number" ? ` (${String(e.detail)})` : "";
    const message = str(e.message);
    return { apiCode: code(e.code), message: message && cut(`${message}${detail}`, MAX_MESSAGE) };
  }
  const parts = [str(body.message), str(body.detail)].filter(Boolean);
  return parts.length > 0 ? { message: cut(parts.join(": "), MAX_MESSAGE) } : {};
}
function apiErrorFrom(status, text, context = {}) {
  const parsed = parseErrorBody(text);
  const fallback = STATUS_TEXT[status] ?? `HTTP ${status}`;
  const core = parsed.apiCode ? `${parsed.apiCode}: ${parsed.message ?? fallback}` : parsed.message ?? `the server answered ${status}${STATUS_TEXT[status] ? ` (${fallback})` : ""}`;
  const message = redactText(context.what ? `${context.what}: ${core}` : core);
  return new import_chunk_6RHUR5LI.ApiError(message, { status, apiCode: parsed.apiCode, url: context.url });
}
function isRecord(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
function str(v) {
  return typeof v === "string" && v !== "" ? cut(v, MAX_MESSAGE) : void 0;
}
function code(v) {
  return typeof v === "string" && /^[A-Za-z0-9_.-]+$/.test(v) ? v.slice(0, MAX_CODE) : void 0;
}
function cut(text, max) {
  return text.length > max ? `${text.slice(0, max)}\u2026` : text;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  apiErrorFrom,
  redactHeaders,
  redactJson,
  redactUrl
});
