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
  GROUPS: () => GROUPS,
  buildProgram: () => buildProgram,
  globalsFrom: () => globalsFrom,
  groupFromArgv: () => groupFromArgv,
  walkCommands: () => walkCommands
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_U45M6QVF = require("./chunk-U45M6QVF.js");
var import_chunk_ZUAAUAFC = require("./chunk-ZUAAUAFC.js");
var import_chunk_3WA5LAVB = require("./chunk-3WA5LAVB.js");
var import_chunk_JQMFCPN3 = require("./chunk-JQMFCPN3.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var GROUPS = [
  {
    name: "policy",
    description: "List, inspect, change and evaluate governance policies",
    load: () => Promise.resolve().then(() => __toESM(require("./policy-VAFYWJS5.js")))
  },
  {
    name: "rule",
    description: "Add, change and remove the rules of a policy",
    load: () => Promise.resolve().then(() => __toESM(require("./rule-G7CMUDRM.js")))
  },
  {
    name: "token",
    description: "Manage personal access tokens",
    load: () => Promise.resolve().then(() => __toESM(require("./token-OZSEEYEB.js")))
  },
  {
    name: "image",
    description: "Inspect, pull, push, copy and delete images in OCI registries",
    load: () => Promise.resolve().then(() => __toESM(require("./image-KQQDSGPY.js")))
  },
  {
    name: "auth",
    description: "Log in and out, and show who you are",
    load: () => Promise.resolve().then(() => __toESM(require("./auth-72HWG6CA.js")))
  },
  {
    name: "config",
    description: "Read and change settings of a profile",
    load: () => Promise.resolve().then(() => __toESM(require("./config-UWWUSSM3.js")))
  },
  {
    name: "completion",
    description: "Print a shell completion script (bash, zsh, fish)",
    load: () => Promise.resolve().then(() => __toESM(require("./completion-IY7Y7ZE3.js")))
  }
];
var VALUE_OPTIONS = /* @__PURE__ */ new Set([
  "--org",
  "--profile",
  "--base-url",
  "--governance-url",
  "--ca-file",
  "--plain-http"
]);
function groupFromArgv(argv) {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return void 0;
    if (VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) continue;
    if (arg === "help") return argv[i + 1];
    return arg;
  }
  return void 0;
}
function globalsFrom(opts) {
  return {
    ...import_chunk_U45M6QVF.DEFAULT_GLOBALS,
    json: Boolean(opts.json),
    org: opts.org,
    profile: opts.profile,
    baseUrl: opts.baseUrl,
    governanceUrl: opts.governanceUrl,
    debug: Boolean(opts.debug),
    color: opts.color !== false,
    quiet: Boolean(opts.quiet),
    yes: Boolean(opts.yes),
    caFile: opts.caFile,
    plainHttp: opts.plainHttp ?? []
  };
}
async function buildProgram(deps, argv, load = "argv") {
  const state = { exitCode: 0, globals: import_chunk_U45M6QVF.DEFAULT_GLOBALS };
  const program = new import_chunk_ZUAAUAFC.Command("hubctl").description("Administer sandbox governance policies, access tokens and OCI images.").version(import_chunk_3WA5LAVB.VERSION, "-V, --version", "print the version").helpOption("-h, --help", "show help").addOption(new import_chunk_ZUAAUAFC.Option("--json", "print JSON objects (errors as JSON on stderr)")).addOption(new import_chunk_ZUAAUAFC.Option("--org <name>", "organization (env HUBCTL_ORG)")).addOption(new import_chunk_ZUAAUAFC.Option("--profile <name>", "configuration profile (env HUBCTL_PROFILE)")).addOption(new import_chunk_ZUAAUAFC.Option("--base-url <url>", "hub API base address (env HUBCTL_BASE_URL)")).addOption(
    new import_chunk_ZUAAUAFC.Option("--governance-url <url>", "governance API base address (env HUBCTL_GOVERNANCE_URL)")
  ).addOption(new import_chunk_ZUAAUAFC.Option("--ca-file <path>", "extra CA certificates (PEM) to trust")).addOption(
    new import_chunk_ZUAAUAFC.Option("--plain-http <host>", "reach this registry host over plain HTTP (repeatable)").argParser(
      import_chunk_JQMFCPN3.collectRepeat
    )
  ).addOption(new import_chunk_ZUAAUAFC.Option("--debug", "trace HTTP requests on stderr, secrets redacted; show stack traces")).addOption(new import_chunk_ZUAAUAFC.Option("--no-color", "never colour output (also NO_COLOR)")).addOption(new import_chunk_ZUAAUAFC.Option("-q, --quiet", "print only data and errors")).addOption(new import_chunk_ZUAAUAFC.Option("-y, --yes", "answer yes to confirmations")).showHelpAfterError(false).showSuggestionAfterError(true).exitOverride().configureOutput({
    writeOut: (s) => deps.io.stdout.write(s),
    writeErr: (s) => deps.io.stderr.write(s),
    // Errors are printed once, by cli.ts, in the user's chosen format.
    outputError: () => void 0
  }).addHelpText(
    "after",
    [
      "",
      "Examples:",
      "  $ hubctl policy eval connect:tcp api.github.com:443 -f examples/network.yaml",
      '  $ printf %s "$HUB_PAT" | hubctl auth login --username alice --password-stdin',
      "  $ hubctl --org acme policy list --json",
      "  $ hubctl image inspect alpine:3.20",
      "",
      "Exit codes: 0 ok, 1 error, 2 usage or invalid input, 3 denied (policy eval),",
      "4 authentication or permission, 5 not found, 6 conflict or limit, 7 network or server.",
      ""
    ].join("\n")
  );
  program.hook("preAction", (_root, action) => {
    state.globals = globalsFrom(action.optsWithGlobals());
  });
  const host = {
    async run(body) {
      const { createContext } = await Promise.resolve().then(() => __toESM(require("./context-SYLN73NF.js")));
      const ctx = createContext(deps, state.globals);
      const code = await body(ctx);
      if (typeof code === "number") state.exitCode = code;
    }
  };
  const wanted = load === "all" ? void 0 : groupFromArgv(argv);
  for (const group of GROUPS) {
    const command = program.command(group.name).description(group.description);
    if (load === "all" || group.name === wanted) (await group.load()).register(command, host);
  }
  return { program, state };
}
function walkCommands(cmd, path = []) {
  const out = [];
  for (const sub of cmd.commands) {
    const p = [...path, sub.name()];
    out.push({ path: p, command: sub }, ...walkCommands(sub, p));
  }
  return out;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  GROUPS,
  buildProgram,
  globalsFrom,
  groupFromArgv,
  walkCommands
});
