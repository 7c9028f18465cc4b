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
  verifyRegistryCredential: () => verifyRegistryCredential
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_3QREYOZM = require("./chunk-3QREYOZM.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
async function verifyRegistryCredential(http, baseUrl, credential) {
  const basic = `Basic ${Buffer.from(`${credential.username}:${credential.secret}`).toString("base64")}`;
  const what = `checking the credential of ${credential.username} at ${new URL(baseUrl).host}`;
  const ping = await http.request({ url: `${baseUrl}/v2/`, okStatuses: [200, 401], what });
  await ping.dump();
  if (ping.status === 200) return;
  const challenges = (0, import_chunk_3QREYOZM.parseWwwAuthenticate)(ping.headers["www-authenticate"]);
  const bearer = challenges.find((c) => c.scheme === "Bearer");
  try {
    if (bearer?.params.realm) {
      const url = new URL(bearer.params.realm);
      if (bearer.params.service) url.searchParams.set("service", bearer.params.service);
      url.searchParams.set("account", credential.username);
      const res2 = await http.request({ url, headers: { authorization: basic }, what });
      await res2.dump();
      return;
    }
    const res = await http.request({ url: `${baseUrl}/v2/`, headers: { authorization: basic }, what });
    await res.dump();
  } catch (err) {
    if (err instanceof import_chunk_6RHUR5LI.ApiError && (err.status === 401 || err.status === 403)) {
      throw new import_chunk_6RHUR5LI.AuthError(`the registry refused the credential of ${credential.username}`, {
        hint: "Check the user name and the password or access token.",
        cause: err
      });
    }
    throw err;
  }
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  verifyRegistryCredential
});
