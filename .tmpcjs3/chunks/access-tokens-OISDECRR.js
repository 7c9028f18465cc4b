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
  createAccessTokenClient: () => createAccessTokenClient
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_HMES2ZMI = require("./chunk-HMES2ZMI.js");
var import_chunk_NXKWY5E6 = require("./chunk-NXKWY5E6.js");
var import_chunk_47AE722P = require("./chunk-47AE722P.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var PAT_JWT_REFUSAL = /issued from personal access token/i;
function createAccessTokenClient(session, baseUrl) {
  const root = `${baseUrl}/v2/access-tokens`;
  async function call(what, fn) {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof import_chunk_6RHUR5LI.ApiError && err.status === 403 && PAT_JWT_REFUSAL.test(err.message)) {
        throw new import_chunk_6RHUR5LI.AuthError(`${what}: token issued from personal access token is not allowed`, {
          hint: "Managing access tokens needs a password login: `hubctl auth login` with your account password.",
          cause: err
        });
      }
      throw err;
    }
  }
  const listPage = (page, pageSize) => call("listing access tokens", async () => {
    const url = new URL(root);
    url.searchParams.set("page", String(page));
    url.searchParams.set("page_size", String(pageSize));
    const res = await session.request({ url, what: "listing access tokens" });
    return (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_HMES2ZMI.AccessTokenPageAnswer, "listing access tokens");
  });
  return {
    create: (body) => call("creating an access token", async () => {
      const res = await session.request({
        method: "POST",
        url: root,
        json: body,
        what: "creating an access token"
      });
      return (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_HMES2ZMI.CreatedAccessTokenAnswer, "creating an access token");
    }),
    listPage,
    async *listAll(pageSize = 100) {
      yield* (0, import_chunk_NXKWY5E6.paginate)(async (cursor) => {
        if (!cursor) {
          const first = await listPage(1, pageSize);
          return { items: first.results, next: first.next };
        }
        const res = await call(
          "listing access tokens",
          () => session.request({ url: new URL(cursor, root), what: "listing access tokens" })
        );
        const page = await (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_HMES2ZMI.AccessTokenPageAnswer, "listing access tokens");
        return { items: page.results, next: page.next };
      });
    },
    get: (uuid) => call(`reading access token ${uuid}`, async () => {
      const res = await session.request({
        url: `${root}/${encodeURIComponent(uuid)}`,
        what: `reading access token ${uuid}`
      });
      return (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_HMES2ZMI.AccessTokenAnswer, `reading access token ${uuid}`);
    }),
    update: (uuid, patch) => call(`updating access token ${uuid}`, async () => {
      const res = await session.request({
        method: "PATCH",
        url: `${root}/${encodeURIComponent(uuid)}`,
        json: patch,
        what: `updating access token ${uuid}`
      });
      return (0, import_chunk_47AE722P.readAnswer)(res, import_chunk_HMES2ZMI.AccessTokenAnswer, `updating access token ${uuid}`);
    }),
    delete: (uuid) => call(`deleting access token ${uuid}`, async () => {
      const res = await session.request({
        method: "DELETE",
        url: `${root}/${encodeURIComponent(uuid)}`,
        what: `deleting access token ${uuid}`
      });
      await res.dump();
    })
  };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  createAccessTokenClient
});
