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
  register: () => register5
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_YH6XWHRG = require("./chunk-YH6XWHRG.js");
var import_chunk_ZUAAUAFC = require("./chunk-ZUAAUAFC.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_P2IX73DH = require("./chunk-P2IX73DH.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
function parseRegistryHost(value) {
  const host = value.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  if (!HOST.test(host)) {
    throw new import_chunk_6RHUR5LI.UsageError(
      `"${value}" is not a registry host; give host or host:port (for example registry.example.com:5000)`
    );
  }
  return host.toLowerCase();
}
function register(group, host, runner = run) {
  const cmd = group.command("login").description("Check a credential and store it: the hub account, or a registry host").argument("[registry-host]", "a registry (host[:port]) instead of the hub account").option("-u, --username <name>", "account name (env HUBCTL_USERNAME)").option("--password-stdin", "read the password or access token from standard input").addOption(new import_chunk_ZUAAUAFC.Option("-p, --password <secret>").hideHelp()).addOption(new import_chunk_ZUAAUAFC.Option("--token <secret>").hideHelp()).action(
    (registryHost, o) => {
      if (o.password !== void 0 || o.token !== void 0) {
        throw new import_chunk_6RHUR5LI.UsageError(
          "a secret is never taken as a command-line argument (it would show in ps and shell history)",
          {
            hint: "Pipe it in with --password-stdin, or run `hubctl auth login` on a terminal to be asked for it."
          }
        );
      }
      const registry = registryHost === void 0 ? void 0 : parseRegistryHost(registryHost);
      return host.run(
        (ctx) => runner(ctx, {
          registry: registry && (0, import_chunk_YH6XWHRG.isDockerHubRegistry)(registry) ? void 0 : registry,
          username: o.username,
          passwordStdin: Boolean(o.passwordStdin)
        })
      );
    }
  );
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    'printf %s "$HUB_PAT" | hubctl auth login --username alice --password-stdin',
    "hubctl auth login            # asks for the account and the secret on a terminal",
    'printf %s "$REG_PASS" | hubctl auth login registry.example.com:5000 -u ci --password-stdin'
  ]);
}
async function run(ctx, opts) {
  const settings = await ctx.settings();
  let username = opts.username ?? (opts.registry ? void 0 : settings.username);
  if (!username) {
    if (!ctx.io.stdinIsTTY || opts.passwordStdin) throw new import_chunk_6RHUR5LI.UsageError("--username is required");
    username = await ctx.prompt.text("Username: ");
    if (!username) throw new import_chunk_6RHUR5LI.UsageError("no account name given");
  }
  const secret = await readSecret(ctx, opts.passwordStdin);
  const store = await ctx.config();
  const http = await ctx.http();
  if (opts.registry) {
    const { verifyRegistryCredential } = await Promise.resolve().then(() => __toESM(require("./registry-login-X3LFHZGA.js")));
    const credential = { username, secret, source: "login" };
    await verifyRegistryCredential(http, (0, import_chunk_P2IX73DH.registryBaseUrl)(opts.registry, ctx.globals.plainHttp), credential);
    store.setRegistryCredential(opts.registry, { username, secret });
    report(ctx, { registry: opts.registry, username, stored: store.credentialsPath });
    return;
  }
  const { exchangeToken } = await Promise.resolve().then(() => __toESM(require("./hub-session-HWDZT3ML.js")));
  await exchangeToken(http, settings.baseUrl, { username, secret, source: "login" });
  store.setHubCredential(settings.profile, { username, secret });
  if (!store.getProfile(settings.profile).username) store.set(settings.profile, "username", username);
  report(ctx, { profile: settings.profile, username, stored: store.credentialsPath });
}
function report(ctx, result) {
  if (ctx.output.json) {
    ctx.output.printJson({ loggedIn: true, ...result });
    return;
  }
  const where = result.registry ? ` to ${result.registry}` : "";
  ctx.output.info(`Logged in${where} as ${result.username} (credential stored in ${result.stored}).`);
}
async function readSecret(ctx, fromStdin) {
  let secret;
  if (fromStdin) {
    secret = (await ctx.readStdin()).replace(/\r?\n$/, "");
  } else if (ctx.io.stdinIsTTY) {
    secret = await ctx.prompt.secret("Password or access token: ");
  } else {
    throw new import_chunk_6RHUR5LI.UsageError("no secret given", {
      hint: "Standard input is not a terminal: pipe the secret in and pass --password-stdin."
    });
  }
  if (secret === "") throw new import_chunk_6RHUR5LI.UsageError("the secret is empty");
  return secret;
}
function register2(group, host, runner = run2) {
  const cmd = group.command("logout").description("Remove the credential hubctl stored (the hub account of the profile, or a registry host)").argument("[registry-host]", "a registry (host[:port]) instead of the hub account").action((registryHost) => {
    const registry = registryHost === void 0 ? void 0 : parseRegistryHost(registryHost);
    return host.run((ctx) => runner(ctx, registry));
  });
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl auth logout", "hubctl auth logout registry.example.com:5000"]);
}
async function run2(ctx, registry) {
  const store = await ctx.config();
  const profile = (await ctx.settings()).profile;
  const removed = registry ? store.deleteRegistryCredential(registry) : store.deleteHubCredential(profile);
  const target = registry ?? `profile "${profile}"`;
  if (ctx.output.json) {
    ctx.output.printJson({ removed, ...registry ? { registry } : { profile } });
    return;
  }
  ctx.output.info(
    removed ? `Removed the stored credential of ${target}.` : `No credential was stored for ${target}.`
  );
  if (!registry && ctx.env.HUBCTL_TOKEN) ctx.output.warn("HUBCTL_TOKEN is still set in the environment.");
}
function register3(group, host, runner = run3) {
  const cmd = group.command("status").description("Show the account, where its credential comes from, and the JWT expiry").action(() => host.run((ctx) => runner(ctx)));
  return (0, import_chunk_JQMFCPN3.examples)(cmd, ["hubctl auth status", "hubctl auth status --json"]);
}
async function run3(ctx) {
  const settings = await ctx.settings();
  const session = await ctx.hubSession();
  const credential = await session.credential();
  await session.jwt();
  const expiresAt = session.expiresAt();
  const status = {
    profile: settings.profile,
    baseUrl: settings.baseUrl,
    username: credential.username,
    source: credential.source,
    jwtExpiresAt: expiresAt === void 0 ? null : new Date(expiresAt).toISOString()
  };
  if (ctx.output.json) {
    ctx.output.printJson(status);
    return;
  }
  await ctx.output.fields([
    ["Account", status.username],
    ["Credential", status.source],
    ["Profile", status.profile],
    ["Hub", status.baseUrl],
    ["JWT expires", ctx.output.time(status.jwtExpiresAt)]
  ]);
}
function register4(group, host, runner = run4) {
  const cmd = group.command("token").description("Print a fresh hub JWT on stdout, for scripts").action(() => host.run((ctx) => runner(ctx)));
  return (0, import_chunk_JQMFCPN3.examples)(cmd, [
    'curl -H "Authorization: Bearer $(hubctl auth token)" https://hub.docker.com/v2/access-tokens'
  ]);
}
async function run4(ctx) {
  const jwt = await (await ctx.hubSession()).jwt();
  if (ctx.output.json) ctx.output.printJson({ token: jwt });
  else ctx.output.line(jwt);
}
function register5(group, host) {
  register(group, host);
  register2(group, host);
  register3(group, host);
  register4(group, host);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  register
});
