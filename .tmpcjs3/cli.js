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
  main: () => main,
  realDeps: () => realDeps,
  report: () => report
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_3WA5LAVB = require("./chunks/chunk-3WA5LAVB.js");
var import_chunk_2HDC4PJR = require("./chunks/chunk-2HDC4PJR.js");
var import_chunk_6RHUR5LI = require("./chunks/chunk-6RHUR5LI.js");
var import_chunk_SEWDMQ6Q = require("./chunks/chunk-SEWDMQ6Q.js");
async function main(argv, deps = realDeps()) {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    deps.io.stdout.write(`${import_chunk_3WA5LAVB.VERSION}
`);
    return import_chunk_6RHUR5LI.ExitCode.OK;
  }
  const json = argv.includes("--json");
  const debug = argv.includes("--debug");
  try {
    const { buildProgram } = await Promise.resolve().then(() => __toESM(require("./chunks/program-XCRQJIPC.js")));
    const { program, state } = await buildProgram(deps, argv);
    if (argv.length === 0) {
      program.outputHelp();
      return import_chunk_6RHUR5LI.ExitCode.USAGE;
    }
    await program.parseAsync(argv, { from: "user" });
    return state.exitCode;
  } catch (err) {
    return report(err, deps.io, { json, debug });
  }
}
function isCommanderError(err) {
  return err instanceof Error && typeof err.code === "string" && err.code.startsWith("commander.");
}
function report(err, io, mode) {
  if (isCommanderError(err)) {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version") {
      return import_chunk_6RHUR5LI.ExitCode.OK;
    }
    if (err.code === "commander.help") return err.exitCode === 0 ? import_chunk_6RHUR5LI.ExitCode.OK : import_chunk_6RHUR5LI.ExitCode.USAGE;
    const message = err.message.replace(/^error: /, "");
    write(io, mode.json, "USAGE", message, "Run the command with --help for its usage.");
    return import_chunk_6RHUR5LI.ExitCode.USAGE;
  }
  const code = (0, import_chunk_6RHUR5LI.exitCodeFor)(err);
  if (err instanceof import_chunk_6RHUR5LI.HubctlError) {
    write(io, mode.json, err.code, err.message, err.hint);
  } else if (isAbort(err)) {
    write(io, mode.json, "CANCELLED", "cancelled");
    return 130;
  } else {
    const message = err instanceof Error ? err.message : String(err);
    write(io, mode.json, "INTERNAL", `unexpected error: ${message}`, "Run with --debug for details.");
  }
  if (mode.debug && err instanceof Error && err.stack) {
    io.stderr.write(`${(0, import_chunk_2HDC4PJR.escapeLines)(err.stack)}
`);
    let cause = err.cause;
    while (cause instanceof Error) {
      io.stderr.write(`caused by: ${(0, import_chunk_2HDC4PJR.escapeLines)(cause.stack ?? cause.message)}
`);
      cause = cause.cause;
    }
  }
  return code;
}
function write(io, json, code, message, hint) {
  if (json) {
    io.stderr.write(`${(0, import_chunk_2HDC4PJR.safeJson)({ error: { code, message, ...hint ? { hint } : {} } })}
`);
    return;
  }
  io.stderr.write(`hubctl: ${(0, import_chunk_2HDC4PJR.escapeControl)(message)}
`);
  if (hint) io.stderr.write(`${(0, import_chunk_2HDC4PJR.escapeControl)(hint)}
`);
}
function isAbort(err) {
  return err instanceof Error && (err.name === "AbortError" || err.code === "ABORT_ERR");
}
function realDeps() {
  const controller = new AbortController();
  let interrupts = 0;
  process.on("SIGINT", () => {
    if (++interrupts > 1) process.exit(130);
    controller.abort(Object.assign(new Error("cancelled"), { name: "AbortError" }));
  });
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err) => {
      if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  return {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: Boolean(process.stdout.isTTY),
      stderrIsTTY: Boolean(process.stderr.isTTY),
      stdinIsTTY: Boolean(process.stdin.isTTY),
      columns: process.stdout.columns ?? process.stderr.columns
    },
    env: process.env,
    signal: controller.signal
  };
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  main,
  realDeps,
  report
});
