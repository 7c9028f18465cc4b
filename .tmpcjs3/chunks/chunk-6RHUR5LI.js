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
  ApiError: () => ApiError,
  AuthError: () => AuthError,
  CancelledError: () => CancelledError,
  ConflictError: () => ConflictError,
  ExitCode: () => ExitCode,
  HubctlError: () => HubctlError,
  IntegrityError: () => IntegrityError,
  NetworkError: () => NetworkError,
  NotFoundError: () => NotFoundError,
  UnexpectedAnswerError: () => UnexpectedAnswerError,
  UsageError: () => UsageError,
  ValidationError: () => ValidationError,
  exitCodeFor: () => exitCodeFor
});
module.exports = __toCommonJS(stdin_exports);
var ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  DENIED: 3,
  AUTH: 4,
  NOT_FOUND: 5,
  CONFLICT: 6,
  NETWORK: 7
};
var HubctlError = class extends Error {
  code = "ERROR";
  exitCode = ExitCode.ERROR;
  hint;
  constructor(message, details = {}) {
    super(message, details.cause === void 0 ? void 0 : { cause: details.cause });
    this.name = new.target.name;
    this.hint = details.hint;
  }
};
var UsageError = class extends HubctlError {
  code = "USAGE";
  exitCode = ExitCode.USAGE;
};
var ValidationError = class extends HubctlError {
  code = "INVALID_INPUT";
  exitCode = ExitCode.USAGE;
};
var AuthError = class extends HubctlError {
  code = "AUTH";
  exitCode = ExitCode.AUTH;
};
var NotFoundError = class extends HubctlError {
  code = "NOT_FOUND";
  exitCode = ExitCode.NOT_FOUND;
};
var ConflictError = class extends HubctlError {
  code = "CONFLICT";
  exitCode = ExitCode.CONFLICT;
};
var NetworkError = class extends HubctlError {
  code = "NETWORK";
  exitCode = ExitCode.NETWORK;
};
var UnexpectedAnswerError = class extends NetworkError {
  code = "UNEXPECTED_ANSWER";
};
var CancelledError = class extends HubctlError {
  code = "CANCELLED";
  exitCode = ExitCode.ERROR;
};
var IntegrityError = class extends HubctlError {
  code = "DIGEST_MISMATCH";
  exitCode = ExitCode.ERROR;
};
var ApiError = class extends HubctlError {
  code;
  exitCode;
  status;
  apiCode;
  url;
  constructor(message, init) {
    super(message, init);
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.url = init.url;
    this.code = init.apiCode ? init.apiCode.toUpperCase() : `HTTP_${init.status}`;
    this.exitCode = exitCodeForStatus(init.status, init.apiCode);
  }
};
function exitCodeForStatus(status, apiCode) {
  const code = apiCode?.toLowerCase();
  if (code === "limit_exceeded" || code === "denied_limit") return ExitCode.CONFLICT;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 409) return ExitCode.CONFLICT;
  if (status === 400 || status === 422) return ExitCode.USAGE;
  if (status === 429 || status >= 500) return ExitCode.NETWORK;
  return ExitCode.ERROR;
}
function exitCodeFor(err) {
  if (err instanceof HubctlError) return err.exitCode;
  return ExitCode.ERROR;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  ApiError,
  AuthError,
  CancelledError,
  ConflictError,
  ExitCode,
  HubctlError,
  IntegrityError,
  NetworkError,
  NotFoundError,
  UnexpectedAnswerError,
  UsageError,
  ValidationError,
  exitCodeFor
});
