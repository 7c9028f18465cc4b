var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
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
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var stdin_exports = {};
__export(stdin_exports, {
  createHttpClient: () => createHttpClient,
  proxySettings: () => proxySettings,
  retryAfterMs: () => retryAfterMs
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_JRLMFXFW = require("./chunk-JRLMFXFW.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var import_node_fs = require("node:fs");
var import_node_tls = require("node:tls");
var import_node_v8 = require("node:v8");
var import_api_request = __toESM(require("undici/lib/api/api-request.js"));
var import_env_http_proxy_agent = __toESM(require("undici/lib/dispatcher/env-http-proxy-agent.js"));
var RETRY_STATUSES = /* @__PURE__ */ new Set([429, 502, 503, 504]);
var READ_RETRY_STATUSES = /* @__PURE__ */ new Set([...RETRY_STATUSES, 500]);
var RETRY_ERROR_CODES = /* @__PURE__ */ new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED"
]);
var REDIRECT_STATUSES = /* @__PURE__ */ new Set([301, 302, 303, 307, 308]);
var MAX_REDIRECTS = 5;
var MAX_RETRY_AFTER_MS = 6e4;
function createHttpClient(options) {
  const maxRetries = options.maxRetries ?? 3;
  const baseMs = options.retryBaseMs ?? 250;
  const random = options.random ?? Math.random;
  let dispatcher = options.dispatcher;
  const getDispatcher = () => {
    if (!dispatcher) {
      let ca;
      if (options.caFile) {
        let extra;
        try {
          extra = (0, import_node_fs.readFileSync)(options.caFile, "utf8");
        } catch (err) {
          throw new import_chunk_6RHUR5LI.UsageError(`cannot read the CA file ${options.caFile}`, { cause: err });
        }
        ca = [...import_node_tls.rootCertificates, ...nodeExtraCerts(options.env), extra];
      }
      keepParserOnBaseline();
      dispatcher = new import_env_http_proxy_agent.default({
        ...options.env ? proxySettings(options.env) : {},
        ...ca ? { connect: { ca }, requestTls: { ca } } : {}
      });
    }
    return dispatcher;
  };
  async function once(method, url, headers, body, opts) {
    const started = options.clock.now();
    options.debug?.(`> ${method} ${(0, import_chunk_JRLMFXFW.redactUrl)(url)}`);
    if (options.debug) {
      for (const [k, v] of Object.entries((0, import_chunk_JRLMFXFW.redactHeaders)(headers))) options.debug(`> ${k}: ${v}`);
      if (opts.json !== void 0) options.debug(`> ${JSON.stringify((0, import_chunk_JRLMFXFW.redactJson)(opts.json))}`);
    }
    const res = await import_api_request.default.call(getDispatcher(), {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers,
      // undici streams any async iterable; its typings only name Readable.
      body: body ?? void 0,
      signal: opts.signal,
      headersTimeout: opts.timeoutMs ?? 3e4,
      bodyTimeout: opts.timeoutMs ?? 3e4
    });
    const flat = flattenHeaders(res.headers);
    if (options.debug) {
      options.debug(`< ${res.statusCode} ${(0, import_chunk_JRLMFXFW.redactUrl)(url)} (${options.clock.now() - started} ms)`);
      for (const [k, v] of Object.entries((0, import_chunk_JRLMFXFW.redactHeaders)(flat))) options.debug(`< ${k}: ${v}`);
    }
    return { status: res.statusCode, headers: flat, body: res.body };
  }
  async function request(opts) {
    const method = opts.method ?? "GET";
    let url = new URL(String(opts.url));
    const headers = { "user-agent": options.userAgent, ...lowerKeys(opts.headers) };
    let body = opts.body;
    if (opts.json !== void 0) {
      body = JSON.stringify(opts.json);
      headers["content-type"] ??= "application/json";
    }
    const replayable = body === void 0 || body === null || typeof body === "string" || body instanceof Uint8Array;
    const idempotent = method === "GET" || method === "HEAD" || method === "PUT" || method === "DELETE";
    const mayRetry = (opts.retry ?? idempotent) && idempotent && replayable;
    const follow = opts.followRedirects ?? (method === "GET" || method === "HEAD");
    let redirects = 0;
    let attempt = 0;
    for (; ; ) {
      let res;
      try {
        res = await once(method, url, headers, body, opts);
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        if (err instanceof import_chunk_6RHUR5LI.HubctlError) throw err;
        const code = errorCode(err);
        if (mayRetry && attempt < maxRetries && code && RETRY_ERROR_CODES.has(code)) {
          await options.clock.sleep(backoff(attempt++), opts.signal);
          continue;
        }
        throw new import_chunk_6RHUR5LI.NetworkError(
          `${opts.what ? `${opts.what}: ` : ""}${method} ${(0, import_chunk_JRLMFXFW.redactUrl)(url)} failed: ${describeNetworkError(err)}`,
          { cause: err }
        );
      }
      if (follow && REDIRECT_STATUSES.has(res.status) && res.headers.location) {
        await res.body.dump().catch(() => void 0);
        if (++redirects > MAX_REDIRECTS) {
          throw new import_chunk_6RHUR5LI.NetworkError(`${method} ${(0, import_chunk_JRLMFXFW.redactUrl)(opts.url)}: too many redirects`);
        }
        const next = new URL(res.headers.location, url);
        if (next.origin !== url.origin) {
          delete headers.authorization;
          delete headers.cookie;
        }
        url = next;
        continue;
      }
      const retryStatuses = method === "GET" || method === "HEAD" ? READ_RETRY_STATUSES : RETRY_STATUSES;
      if (mayRetry && attempt < maxRetries && retryStatuses.has(res.status)) {
        const wait = retryAfterMs(res.headers["retry-after"], options.clock.now()) ?? backoff(attempt);
        attempt++;
        await res.body.dump().catch(() => void 0);
        await options.clock.sleep(Math.min(wait, MAX_RETRY_AFTER_MS), opts.signal);
        continue;
      }
      const ok = opts.okStatuses === "any" || (opts.okStatuses ?? []).includes(res.status) || isSuccess(res.status);
      const finalUrl = url.toString();
      if (!ok) {
        const text = method === "HEAD" ? "" : await res.body.text().catch(() => "");
        throw (0, import_chunk_JRLMFXFW.apiErrorFrom)(res.status, text, { url: (0, import_chunk_JRLMFXFW.redactUrl)(finalUrl), what: opts.what });
      }
      const readable = res.body;
      return {
        status: res.status,
        headers: res.headers,
        url: finalUrl,
        body: readable,
        text: () => readable.text(),
        json: async () => {
          const text = await readable.text();
          try {
            return JSON.parse(text);
          } catch (err) {
            throw new import_chunk_6RHUR5LI.NetworkError(
              `${opts.what ? `${opts.what}: ` : ""}the server at ${url.host} answered with malformed JSON`,
              { cause: err }
            );
          }
        },
        dump: () => readable.dump()
      };
    }
  }
  function backoff(attempt) {
    return Math.round(random() * baseMs * 2 ** attempt);
  }
  return { request };
}
function keepParserOnBaseline() {
  (0, import_node_v8.setFlagsFromString)("--liftoff-only");
}
function proxySettings(env) {
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? "";
  return {
    httpProxy,
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? httpProxy,
    noProxy: env.no_proxy ?? env.NO_PROXY ?? ""
  };
}
function nodeExtraCerts(env) {
  const file = env?.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [(0, import_node_fs.readFileSync)(file, "utf8")];
  } catch {
    return [];
  }
}
function isSuccess(status) {
  return status >= 200 && status < 300;
}
function lowerKeys(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}
function flattenHeaders(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== void 0) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}
function retryAfterMs(value, now) {
  if (!value) return void 0;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1e3;
  const at = Date.parse(value);
  return Number.isNaN(at) ? void 0 : Math.max(0, at - now);
}
function errorCode(err) {
  let e = err;
  for (let depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const code = e.code;
    if (typeof code === "string") return code;
    e = e.cause;
  }
  return void 0;
}
function describeNetworkError(err) {
  const code = errorCode(err);
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return "the connection was reset";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name could not be resolved";
    case "UND_ERR_CONNECT_TIMEOUT":
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
    case "ETIMEDOUT":
      return "timed out";
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
      return "the server certificate is not trusted (add its CA with --ca-file or NODE_EXTRA_CA_CERTS)";
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  createHttpClient,
  proxySettings,
  retryAfterMs
});
