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
  collectList: () => collectList,
  collectRepeat: () => collectRepeat,
  confirmDestructive: () => confirmDestructive,
  examples: () => examples,
  positiveInt: () => positiveInt
});
module.exports = __toCommonJS(stdin_exports);
var import_chunk_6RHUR5LI = require("./chunk-6RHUR5LI.js");
function examples(cmd, lines) {
  return cmd.addHelpText("after", `
Examples:
${lines.map((l) => `  $ ${l}`).join("\n")}
`);
}
function collectList(value, previous = []) {
  return [
    ...previous,
    ...value.split(",").map((v) => v.trim()).filter(Boolean)
  ];
}
function collectRepeat(value, previous = []) {
  return [...previous, value];
}
function positiveInt(name) {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1) {
      throw new import_chunk_6RHUR5LI.UsageError(`${name} must be a whole number of at least 1 (got "${value}")`);
    }
    return Number(value);
  };
}
async function confirmDestructive(ctx, question) {
  if (ctx.globals.yes) return true;
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new import_chunk_6RHUR5LI.UsageError("refusing to delete without confirmation", {
      hint: "Standard input is not a terminal: pass --yes to confirm."
    });
  }
  return ctx.prompt.confirm(question);
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  collectList,
  collectRepeat,
  confirmDestructive,
  examples,
  positiveInt
});
