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
  register: () => register5
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_YNFT2PJU = require("./chunk-YNFT2PJU.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var KEY_NAMES = Object.keys(import_chunk_YNFT2PJU.PROFILE_KEYS);
function profileKey(key) {
  if (!KEY_NAMES.includes(key)) {
    throw new import_chunk_6RHUR5LI.UsageError(`unknown setting "${key}"; the settings are ${KEY_NAMES.join(", ")}`);
  }
  return key;
}
function checkValue(key, value) {
  if (key === "base-url" || key === "governance-url") {
    let url;
    try {
      url = new URL(value);
    } catch {
      throw new import_chunk_6RHUR5LI.UsageError(`${key} must be an http:// or https:// address (got "${value}")`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new import_chunk_6RHUR5LI.UsageError(`${key} must be an http:// or https:// address (got "${value}")`);
    }
    return value.replace(/\/+$/, "");
  }
  if (value.trim() === "") throw new import_chunk_6RHUR5LI.UsageError(`${key} cannot be empty`);
  return value;
}
function register(group, host, runner = run) {
  const cmd = group.command("get").description(`Print one setting of the profile as stored (${KEY_NAMES.join(", ")})`).argument("<key>", "setting name").action((key) => {
    const k = profileKey(key);
    return host.run((ctx) => runner(ctx, k));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl config get org"]);
}
async function run(ctx, key) {
  const profile = (await ctx.settings()).profile;
  const value = (await ctx.config()).getProfile(profile)[key];
  if (value === void 0) throw new import_chunk_6RHUR5LI.NotFoundError(`${key} is not set in profile "${profile}"`);
  if (ctx.output.json) ctx.output.printJson({ profile, key, value });
  else ctx.output.line(value);
}
function register2(group, host, runner = run2) {
  const cmd = group.command("list").description("Show the effective settings of the profile and where each comes from").action(() => host.run((ctx) => runner(ctx)));
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl config list", "hubctl --profile staging config list --json"]);
}
async function run2(ctx) {
  const s = await ctx.settings();
  const store = await ctx.config();
  const rows = {
    profile: s.profile,
    "base-url": s.baseUrl,
    "governance-url": s.governanceUrl,
    org: s.org ?? null,
    username: s.username ?? null
  };
  if (ctx.output.json) {
    ctx.output.printJson({
      ...rows,
      sources: {
        "base-url": s.sources.baseUrl,
        "governance-url": s.sources.governanceUrl,
        org: s.sources.org,
        username: s.sources.username
      },
      profiles: store.profiles(),
      configFile: store.path
    });
    return;
  }
  await ctx.output.table(
    ["KEY", "VALUE", "SOURCE"],
    [
      ["profile", s.profile, ""],
      ["base-url", s.baseUrl, s.sources.baseUrl],
      ["governance-url", s.governanceUrl, s.sources.governanceUrl],
      ["org", s.org, s.sources.org],
      ["username", s.username, s.sources.username]
    ]
  );
}
function register3(group, host, runner = run3) {
  const cmd = group.command("set").description(`Store a setting in the profile (${KEY_NAMES.join(", ")})`).argument("<key>", "setting name").argument("<value>", "new value").action((key, value) => {
    const k = profileKey(key);
    const v = checkValue(k, value);
    return host.run((ctx) => runner(ctx, k, v));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl config set org acme",
    "hubctl --profile staging config set base-url https://hub.staging.example.com"
  ]);
}
async function run3(ctx, key, value) {
  const profile = (await ctx.settings()).profile;
  (await ctx.config()).set(profile, key, value);
  if (ctx.output.json) ctx.output.printJson({ profile, key, value });
  else ctx.output.info(`Set ${key} to ${value} in profile "${profile}".`);
}
function register4(group, host, runner = run4) {
  const cmd = group.command("unset").description("Remove a setting from the profile").argument("<key>", "setting name").action((key) => {
    const k = profileKey(key);
    return host.run((ctx) => runner(ctx, k));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl config unset org"]);
}
async function run4(ctx, key) {
  const profile = (await ctx.settings()).profile;
  const removed = (await ctx.config()).unset(profile, key);
  if (ctx.output.json) ctx.output.printJson({ profile, key, removed });
  else
    ctx.output.info(
      removed ? `Removed ${key} from profile "${profile}".` : `${key} was not set in profile "${profile}".`
    );
}
function register5(group, host) {
  register2(group, host);
  register(group, host);
  register3(group, host);
  register4(group, host);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  register
});
