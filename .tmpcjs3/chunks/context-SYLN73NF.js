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
  DEFAULT_GLOBALS: () => import_chunk_U45M6QVF.DEFAULT_GLOBALS,
  VERSION: () => import_chunk_3WA5LAVB.VERSION,
  createContext: () => createContext
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_U45M6QVF = require("./chunk-U45M6QVF.js");
var import_chunk_3WA5LAVB = require("./chunk-3WA5LAVB.js");
var import_chunk_2HDC4PJR = require("./chunk-2HDC4PJR.js");
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunk-SEWDMQ6Q.js");
var import_node_os = require("node:os");
var import_node_path = require("node:path");
var import_node_readline = require("node:readline");
var systemClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  })
};
var DEFAULT_BASE_URL = "https://hub.docker.com";
var DEFAULT_PROFILE = "default";
function profileName(flags, env) {
  return flags.profile || env.HUBCTL_PROFILE || DEFAULT_PROFILE;
}
function resolveSettings(flags, env, profileValues) {
  const pick = (flag, envName, key) => {
    if (flag) return { value: flag, source: "flag" };
    if (env[envName]) return { value: env[envName], source: "env" };
    if (profileValues[key]) return { value: profileValues[key], source: "profile" };
    return { value: void 0, source: "unset" };
  };
  const base = pick(flags.baseUrl, "HUBCTL_BASE_URL", "base-url");
  const baseUrl = trimSlash(base.value ?? DEFAULT_BASE_URL);
  const gov = pick(flags.governanceUrl, "HUBCTL_GOVERNANCE_URL", "governance-url");
  const org = pick(flags.org, "HUBCTL_ORG", "org");
  const user = pick(flags.username, "HUBCTL_USERNAME", "username");
  return {
    profile: profileName(flags, env),
    baseUrl,
    governanceUrl: trimSlash(gov.value ?? `${baseUrl}/v2`),
    org: org.value,
    username: user.value,
    sources: {
      baseUrl: base.value ? base.source : "default",
      governanceUrl: gov.value ? gov.source : "default",
      org: org.source,
      username: user.source
    }
  };
}
function trimSlash(url) {
  return url.replace(/\/+$/, "");
}
function colorEnabled(io, env, flag) {
  if (!flag) return false;
  if (env.NO_COLOR !== void 0 && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== void 0 && env.FORCE_COLOR !== "0") return true;
  return io.stdoutIsTTY;
}
var Styled = class {
  constructor(rendered) {
    this.rendered = rendered;
  }
  rendered;
};
function render(text) {
  if (typeof text === "string") return (0, import_chunk_2HDC4PJR.escapeControl)(text);
  if (text instanceof Styled) return text.rendered;
  return text.map(render).join("");
}
function createOutput(io, options) {
  let chalkPromise;
  const chalk = () => {
    chalkPromise ??= Promise.resolve().then(() => __toESM(require("chalk"))).then((m) => new m.Chalk({ level: 1 }));
    return chalkPromise;
  };
  const paint = async (text, ...styles) => {
    const safe = (0, import_chunk_2HDC4PJR.escapeControl)(text);
    if (!options.color || styles.length === 0) return safe;
    let c = await chalk();
    for (const s of styles) c = c[s];
    return c(safe);
  };
  const style = async (text, ...styles) => new Styled(await paint(text, ...styles));
  const cellText = (cell) => cell === null || cell === void 0 ? "" : (0, import_chunk_2HDC4PJR.escapeControl)(String(cell));
  return {
    json: options.json,
    quiet: options.quiet,
    isTTY: io.stdoutIsTTY,
    printJson(value) {
      io.stdout.write(`${(0, import_chunk_2HDC4PJR.safeJson)(value, 2)}
`);
    },
    line(text = "") {
      io.stdout.write(`${render(text)}
`);
    },
    verbatim(text) {
      const shown = io.stdoutIsTTY ? (0, import_chunk_2HDC4PJR.escapeLines)(text) : text;
      io.stdout.write(shown.endsWith("\n") ? shown : `${shown}
`);
    },
    async table(columns, rows) {
      const cols = columns.map((c) => typeof c === "string" ? { header: c } : c);
      if (!io.stdoutIsTTY) {
        for (const row of rows) io.stdout.write(`${row.map(cellText).join("	")}
`);
        return;
      }
      const { default: Table } = await Promise.resolve().then(() => __toESM(require("cli-table3")));
      const head = await Promise.all(cols.map((c) => paint(c.header, "bold")));
      const table = new Table({
        head,
        colAligns: cols.map((c) => c.align ?? "left"),
        style: { head: [], border: options.color ? ["grey"] : [] },
        chars: BORDERLESS
      });
      for (const row of rows) table.push(row.map(cellText));
      io.stdout.write(`${table.toString()}
`);
    },
    async fields(pairs) {
      if (!io.stdoutIsTTY) {
        for (const [k, v] of pairs) io.stdout.write(`${(0, import_chunk_2HDC4PJR.escapeControl)(k)}	${cellText(v)}
`);
        return;
      }
      const width = Math.max(...pairs.map(([k]) => k.length));
      for (const [k, v] of pairs) {
        io.stdout.write(`${await paint(`${k}:`.padEnd(width + 1), "bold")} ${cellText(v)}
`);
      }
    },
    info(text) {
      if (options.quiet || options.json) return;
      io.stderr.write(`${(0, import_chunk_2HDC4PJR.escapeControl)(text)}
`);
    },
    warn(text) {
      if (options.json) return;
      io.stderr.write(`${(0, import_chunk_2HDC4PJR.escapeControl)(text)}
`);
    },
    style,
    time(iso) {
      if (!iso) return "";
      if (!io.stdoutIsTTY) return iso;
      const d = new Date(iso);
      if (Number.isNaN(d.getTime())) return iso;
      return d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
    }
  };
}
var BORDERLESS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "  "
};
function createPrompter(io) {
  const ask = (question, mute) => new Promise((resolve, reject) => {
    if (!io.stdinIsTTY) {
      reject(new import_chunk_6RHUR5LI.UsageError("cannot ask a question: standard input is not a terminal"));
      return;
    }
    io.stderr.write((0, import_chunk_2HDC4PJR.escapeControl)(question));
    let muted = false;
    const output = {
      write: (chunk) => {
        if (!muted) io.stderr.write(chunk);
        return true;
      },
      on: () => output,
      once: () => output,
      emit: () => false,
      removeListener: () => output
    };
    const rl = (0, import_node_readline.createInterface)({ input: io.stdin, output, terminal: true });
    muted = mute;
    let answered = false;
    rl.on("SIGINT", () => {
      rl.close();
      io.stderr.write("\n");
      reject(new import_chunk_6RHUR5LI.CancelledError("cancelled"));
    });
    rl.on("close", () => {
      if (!answered) reject(new import_chunk_6RHUR5LI.CancelledError("cancelled"));
    });
    rl.question("", (answer) => {
      answered = true;
      rl.close();
      if (mute) io.stderr.write("\n");
      resolve(answer);
    });
  });
  return {
    secret: (question) => ask(question, true),
    text: async (question) => (await ask(question, false)).trim(),
    confirm: async (question) => /^y(es)?$/i.test((await ask(`${question} [y/N] `, false)).trim())
  };
}
function memo(make) {
  let value;
  return () => {
    value ??= make();
    value.catch(() => {
      value = void 0;
    });
    return value;
  };
}
function createContext(deps, globals = import_chunk_U45M6QVF.DEFAULT_GLOBALS) {
  const { io, env } = deps;
  const clock = deps.clock ?? systemClock;
  const output = createOutput(io, {
    json: globals.json,
    quiet: globals.quiet,
    color: colorEnabled(io, env, globals.color)
  });
  const home = env.HOME || (0, import_node_os.homedir)();
  const configDir = () => env.HUBCTL_CONFIG_DIR || (0, import_node_path.join)(env.XDG_CONFIG_HOME || (0, import_node_path.join)(home, ".config"), "hubctl");
  const stateDir = () => env.HUBCTL_CONFIG_DIR ? (0, import_node_path.join)(env.HUBCTL_CONFIG_DIR, "state") : (0, import_node_path.join)(env.XDG_STATE_HOME || (0, import_node_path.join)(home, ".local", "state"), "hubctl");
  const debug = (line) => {
    if (globals.debug) io.stderr.write(`[debug] ${(0, import_chunk_2HDC4PJR.escapeControl)(line)}
`);
  };
  const config = memo(async () => (await Promise.resolve().then(() => __toESM(require("./store-UL7TZQX4.js")))).openConfigStore(configDir()));
  const reader = memo(async () => (await Promise.resolve().then(() => __toESM(require("./read-VOOGJUS2.js")))).openConfigReader(configDir()));
  const settings = memo(async () => {
    const flags = { ...globals, username: void 0 };
    const profile = profileName(flags, env);
    return resolveSettings(flags, env, (await reader()).getProfile(profile));
  });
  const http = memo(async () => {
    const { createHttpClient } = await Promise.resolve().then(() => __toESM(require("./client-GE5DJQTL.js")));
    return createHttpClient({
      userAgent: `hubctl/${import_chunk_3WA5LAVB.VERSION} node/${process.versions.node}`,
      clock,
      debug: globals.debug ? debug : void 0,
      caFile: globals.caFile,
      env,
      dispatcher: deps.dispatcher,
      retryBaseMs: deps.retryBaseMs
    });
  });
  const credentials = memo(async () => {
    const { createCredentialChain } = await Promise.resolve().then(() => __toESM(require("./chain-N54JVJQY.js")));
    const store = await reader();
    return createCredentialChain({ env, settings: await settings(), store: () => store });
  });
  const hubSession = memo(async () => {
    const { createHubSession } = await Promise.resolve().then(() => __toESM(require("./hub-session-HWDZT3ML.js")));
    const chain = await credentials();
    return createHubSession({
      http: await http(),
      clock,
      baseUrl: (await settings()).baseUrl,
      credential: chain.hub
    });
  });
  const org = async () => {
    const value = (await settings()).org;
    if (!value) {
      throw new import_chunk_6RHUR5LI.UsageError("no organization is set", {
        hint: "Pass --org NAME, set HUBCTL_ORG, or run `hubctl config set org NAME`."
      });
    }
    return value;
  };
  return {
    io,
    env,
    clock,
    globals,
    output,
    prompt: deps.prompter ?? createPrompter(io),
    signal: deps.signal ?? new AbortController().signal,
    configDir,
    stateDir,
    debug,
    readStdin: () => readAll(io.stdin),
    config,
    settings,
    org,
    http,
    credentials,
    hubSession,
    accessTokens: memo(async () => {
      const { createAccessTokenClient } = await Promise.resolve().then(() => __toESM(require("./access-tokens-OISDECRR.js")));
      return createAccessTokenClient(await hubSession(), (await settings()).baseUrl);
    }),
    governance: memo(async () => {
      const { createGovernanceClient } = await Promise.resolve().then(() => __toESM(require("./governance-KHOKPQJQ.js")));
      const orgName = await org();
      return createGovernanceClient(await hubSession(), (await settings()).governanceUrl, orgName);
    })
  };
}
async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  DEFAULT_GLOBALS,
  VERSION,
  createContext
});
