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
  register: () => register6
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_NXKWY5E6 = require("./chunk-NXKWY5E6.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var SCOPES = ["repo:admin", "repo:write", "repo:read", "repo:public_read"];
function checkScopes(scopes) {
  if (scopes.length === 0) throw new import_chunk_6RHUR5LI.UsageError(`at least one --scope is required (${SCOPES.join(", ")})`);
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) {
      throw new import_chunk_6RHUR5LI.UsageError(`unknown scope "${scope}"; the scopes are ${SCOPES.join(", ")}`);
    }
  }
  return [...new Set(scopes)];
}
function checkLabel(label) {
  if (label.length < 1 || label.length > 100) {
    throw new import_chunk_6RHUR5LI.UsageError(`--label must be 1 to 100 characters (got ${label.length})`);
  }
  return label;
}
var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function checkUuid(value) {
  if (!UUID.test(value))
    throw new import_chunk_6RHUR5LI.UsageError(`"${value}" is not a token UUID (like 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b)`);
  return value.toLowerCase();
}
var UNITS = { m: 6e4, h: 36e5, d: 864e5, w: 7 * 864e5 };
function parseExpiry(value, now) {
  const duration = /^(\d+)\s*([mhdw])$/i.exec(value.trim());
  let at;
  if (duration) {
    at = now + Number(duration[1]) * UNITS[duration[2].toLowerCase()];
  } else if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) {
    at = Date.parse(value.trim().replace(" ", "T"));
  } else {
    at = Number.NaN;
  }
  if (Number.isNaN(at)) {
    throw new import_chunk_6RHUR5LI.UsageError(`--expires takes a duration (30d, 12h, 2w) or a date (2027-01-31), not "${value}"`);
  }
  if (at <= now) throw new import_chunk_6RHUR5LI.UsageError(`--expires must lie in the future (got ${value})`);
  return new Date(at).toISOString();
}
function register(group, host, runner = run) {
  const cmd = group.command("create").description("Create a personal access token; its secret is printed once, on stdout").requiredOption("--label <label>", "a name for the token (1-100 characters)").option("--scope <scope>", `repeatable or comma-separated: ${SCOPES.join(", ")}`, import_chunk_JQMFCPN3.collectList, []).option("--expires <when>", "a duration (30d, 12h, 2w) or a date (2027-01-31); default: never").action((o) => {
    const opts = { label: checkLabel(o.label), scopes: checkScopes(o.scope), expires: o.expires };
    if (opts.expires !== void 0) parseExpiry(opts.expires, Date.now());
    return host.run((ctx) => runner(ctx, opts));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl token create --label ci-deploy --scope repo:read --scope repo:write --expires 90d",
    "TOKEN=$(hubctl token create --label nightly --scope repo:read -q)"
  ]);
}
async function run(ctx, opts) {
  const expiresAt = opts.expires === void 0 ? void 0 : parseExpiry(opts.expires, ctx.clock.now());
  const client = await ctx.accessTokens();
  const token = await client.create({
    token_label: opts.label,
    scopes: opts.scopes,
    ...expiresAt ? { expires_at: expiresAt } : {}
  });
  if (ctx.output.json) {
    ctx.output.printJson(token);
    return;
  }
  ctx.output.line(token.token ?? "");
  ctx.output.warn(
    `Created token "${token.token_label}" (${token.uuid}). This is the only time its secret is shown: store it now.`
  );
}
function register2(group, host, runner = run2) {
  const cmd = group.command("delete").description("Delete an access token for good (asks first; --yes without a terminal)").argument("<uuid>", "token UUID").action((uuid) => {
    const id = checkUuid(uuid);
    return host.run((ctx) => runner(ctx, id));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl token delete 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b --yes"]);
}
async function run2(ctx, uuid) {
  if (!await (0, import_chunk_JQMFCPN3.confirmDestructive)(ctx, `Delete access token ${uuid}? Anything using it stops working.`)) {
    throw new import_chunk_6RHUR5LI.CancelledError("nothing was deleted");
  }
  await (await ctx.accessTokens()).delete(uuid);
  if (ctx.output.json) ctx.output.printJson({ deleted: uuid });
  else ctx.output.info(`Deleted access token ${uuid}.`);
}
function register3(group, host, runner = run3) {
  const cmd = group.command("get").description("Show one access token (secret masked)").argument("<uuid>", "token UUID").action((uuid) => {
    const id = checkUuid(uuid);
    return host.run((ctx) => runner(ctx, id));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl token get 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b"]);
}
async function run3(ctx, uuid) {
  const token = await (await ctx.accessTokens()).get(uuid);
  await showToken(ctx, token);
}
async function showToken(ctx, token) {
  if (ctx.output.json) {
    ctx.output.printJson(token);
    return;
  }
  await ctx.output.fields([
    ["UUID", token.uuid],
    ["Label", token.token_label],
    ["Scopes", token.scopes.join(", ")],
    ["Active", token.is_active ? "yes" : "no"],
    ["Token", token.token],
    ["Created", ctx.output.time(token.created_at)],
    ["Expires", token.expires_at ? ctx.output.time(token.expires_at) : "never"],
    ["Last used", token.last_used ? ctx.output.time(token.last_used) : "never"],
    ["Generated by", token.generated_by]
  ]);
}
function register4(group, host, runner = run4) {
  const cmd = group.command("list").description("List access tokens (secrets masked): one page, or --all").option("--page <n>", "page number", (0, import_chunk_JQMFCPN3.positiveInt)("--page")).option("--page-size <n>", "tokens per page (default 10)", (0, import_chunk_JQMFCPN3.positiveInt)("--page-size")).option("--all", "every page, following the server's links").action((o) => {
    if (o.all && o.page !== void 0) throw new import_chunk_6RHUR5LI.UsageError("--all and --page cannot be used together");
    return host.run(
      (ctx) => runner(ctx, { all: Boolean(o.all), page: o.page ?? 1, pageSize: o.pageSize ?? 10 })
    );
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    "hubctl token list",
    "hubctl token list --page 2 --page-size 50",
    "hubctl token list --all --json"
  ]);
}
async function run4(ctx, opts) {
  const client = await ctx.accessTokens();
  let tokens;
  if (opts.all) {
    tokens = await (0, import_chunk_NXKWY5E6.collect)(client.listAll(opts.pageSize === 10 ? 100 : opts.pageSize));
    if (ctx.output.json) return ctx.output.printJson(tokens);
  } else {
    const page = await client.listPage(opts.page, opts.pageSize);
    if (ctx.output.json) return ctx.output.printJson(page);
    tokens = page.results;
    if (page.next)
      ctx.output.info(
        `Page ${opts.page} of ${Math.ceil(page.count / opts.pageSize)}; --page ${opts.page + 1} for more, or --all.`
      );
  }
  if (tokens.length === 0) {
    ctx.output.info(
      "No access tokens yet: create one with `hubctl token create --label NAME --scope repo:read`."
    );
    return;
  }
  await ctx.output.table(
    ["UUID", "LABEL", "SCOPES", "ACTIVE", "CREATED", "EXPIRES", "LAST USED"],
    tokens.map((t) => [
      t.uuid,
      t.token_label,
      t.scopes.join(","),
      t.is_active ? "yes" : "no",
      ctx.output.time(t.created_at),
      t.expires_at ? ctx.output.time(t.expires_at) : "never",
      t.last_used ? ctx.output.time(t.last_used) : "never"
    ])
  );
}
function register5(group, host, verb, runner = run5) {
  const cmd = group.command(verb).description(
    verb === "activate" ? "Turn an access token back on" : "Turn an access token off without deleting it"
  ).argument("<uuid>", "token UUID").action((uuid) => {
    const id = checkUuid(uuid);
    return host.run((ctx) => runner(ctx, id, verb === "activate"));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [`hubctl token ${verb} 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b`]);
}
async function run5(ctx, uuid, active) {
  const token = await (await ctx.accessTokens()).update(uuid, { is_active: active });
  if (!ctx.output.json) ctx.output.info(`Token ${uuid} is now ${active ? "active" : "inactive"}.`);
  await showToken(ctx, token);
}
function register6(group, host) {
  register(group, host);
  register4(group, host);
  register3(group, host);
  register5(group, host, "activate");
  register5(group, host, "deactivate");
  register2(group, host);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  register
});
