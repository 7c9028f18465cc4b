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
  parseWwwAuthenticate: () => parseWwwAuthenticate
});
module.exports = __toCommonJS(stdin_exports);
var TOKEN = /[\w!#$%&'*+.^`|~-]/;
function parseWwwAuthenticate(header) {
  if (!header) return [];
  const challenges = [];
  let i = 0;
  const skip = (chars) => {
    while (i < header.length && chars.includes(header[i])) i++;
  };
  const token = () => {
    const start = i;
    while (i < header.length && TOKEN.test(header[i])) i++;
    return header.slice(start, i);
  };
  while (i < header.length) {
    skip(" ,	");
    const word = token();
    if (!word) {
      i++;
      continue;
    }
    skip(" 	");
    if (header[i] === "=" && challenges.length > 0) {
      i++;
      skip(" 	");
      let value = "";
      if (header[i] === '"') {
        i++;
        while (i < header.length && header[i] !== '"') {
          if (header[i] === "\\") i++;
          value += header[i] ?? "";
          i++;
        }
        i++;
      } else {
        value = token();
      }
      challenges[challenges.length - 1].params[word.toLowerCase()] = value;
    } else {
      challenges.push({ scheme: word.toLowerCase() === "bearer" ? "Bearer" : word, params: {} });
    }
  }
  return challenges;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  parseWwwAuthenticate
});
