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
  EXPIRY_MARGIN_MS: () => EXPIRY_MARGIN_MS,
  createHubSession: () => createHubSession,
  exchangeToken: () => exchangeToken
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_HMES2ZMI = require("./chunk-HMES2ZMI.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
function decodeJwt(token) {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return void 0;
  try {
    const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return claims && typeof claims === "object" ? claims : void 0;
  } catch {
    return void 0;
  }
}
function jwtExpiry(token) {
  const exp = decodeJwt(token)?.exp;
  return typeof exp === "number" ? exp * 1e3 : void 0;
}
var EXPIRY_MARGIN_MS = 3e4;
var DEFAULT_LIFETIME_MS = 5 * 6e4;
async function exchangeToken(http, baseUrl, credential) {
  let res;
  try {
    res = await http.request({
      method: "POST",
      url: `${baseUrl}/v2/auth/token`,
      json: { identifier: credential.username, password: credential.secret, secret: credential.secret },
      what: `signing in as ${credential.username}`
    });
  } catch (err) {
    if (err instanceof import_chunk_6RHUR5LI.ApiError && (err.status === 401 || err.status === 403)) {
      throw new import_chunk_6RHUR5LI.AuthError(`the hub refused the credential of ${credential.username} (${credential.source})`, {
        hint: "Check the account name and the password or access token; `hubctl auth login` stores a new one.",
        cause: err
      });
    }
    throw err;
  }
  return (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_HMES2ZMI.TokenExchangeAnswer, `signing in as ${credential.username}`);
}
function createHubSession(deps) {
  let cached;
  let pending;
  async function credential() {
    const cred = await deps.credential();
    if (!cred) {
      throw new import_chunk_6RHUR5LI.AuthError("you are not logged in", {
        hint: "Run `hubctl auth login`, or set HUBCTL_USERNAME and HUBCTL_TOKEN."
      });
    }
    return cred;
  }
  async function fresh() {
    const jwt2 = await exchangeToken(deps.http, deps.baseUrl, await credential());
    const expiresAt = jwtExpiry(jwt2) ?? deps.clock.now() + DEFAULT_LIFETIME_MS;
    cached = { jwt: jwt2, expiresAt };
    return jwt2;
  }
  async function jwt() {
    if (cached && deps.clock.now() < cached.expiresAt - EXPIRY_MARGIN_MS) return cached.jwt;
    pending ??= fresh().finally(() => {
      pending = void 0;
    });
    return pending;
  }
  async function request(options) {
    const send = async (token) => deps.http.request({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
    const first = await jwt();
    try {
      return await send(first);
    } catch (err) {
      if (!(err instanceof import_chunk_6RHUR5LI.ApiError) || err.status !== 401) throw err;
    }
    if (cached?.jwt === first) cached = void 0;
    try {
      return await send(await jwt());
    } catch (err) {
      if (err instanceof import_chunk_6RHUR5LI.ApiError && err.status === 401) {
        throw new import_chunk_6RHUR5LI.AuthError(`${err.message} (the hub refused a freshly issued token)`, {
          hint: "Run `hubctl auth login` again.",
          cause: err
        });
      }
      throw err;
    }
  }
  return { jwt, credential, expiresAt: () => cached?.expiresAt, request };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  EXPIRY_MARGIN_MS,
  createHubSession,
  exchangeToken
});
