// Typed errors. Lower layers throw these (or wrap others with context); src/cli.ts alone turns them
// into a message and an exit code (decisions §7).

export const ExitCode = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  DENIED: 3,
  AUTH: 4,
  NOT_FOUND: 5,
  CONFLICT: 6,
  NETWORK: 7,
  /** `policy diff`: the organization differs from the files (not an error). */
  DIFFERS: 10,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorDetails {
  /** A second sentence that tells the user what to do next. */
  hint?: string;
  cause?: unknown;
}

export class HubctlError extends Error {
  readonly code: string = 'ERROR';
  readonly exitCode: ExitCodeValue = ExitCode.ERROR;
  readonly hint?: string;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.hint = details.hint;
  }
}

/** Bad arguments, flags, files or input, caught before any request is sent. */
export class UsageError extends HubctlError {
  override readonly code = 'USAGE';
  override readonly exitCode = ExitCode.USAGE;
}

/** Input that parsed but is not valid (a bad rule, a bad reference, a malformed policy file). */
export class ValidationError extends HubctlError {
  override readonly code = 'INVALID_INPUT';
  override readonly exitCode = ExitCode.USAGE;
}

/** No credential, a refused credential, or a permission the caller lacks. */
export class AuthError extends HubctlError {
  override readonly code = 'AUTH';
  override readonly exitCode = ExitCode.AUTH;
}

export class NotFoundError extends HubctlError {
  override readonly code = 'NOT_FOUND';
  override readonly exitCode = ExitCode.NOT_FOUND;
}

/** A name already in use, or a limit reached. */
export class ConflictError extends HubctlError {
  override readonly code = 'CONFLICT';
  override readonly exitCode = ExitCode.CONFLICT;
}

/** The network failed, or the server kept failing after retries. */
export class NetworkError extends HubctlError {
  override readonly code: string = 'NETWORK';
  override readonly exitCode = ExitCode.NETWORK;
}

/**
 * A server answered, but not with what the interface documents (wrong JSON shape, a body over its
 * cap, a link to another origin). Exit 7 like any server failure: the input was fine.
 */
export class UnexpectedAnswerError extends NetworkError {
  override readonly code = 'UNEXPECTED_ANSWER';
}

/** The user declined a confirmation or pressed Ctrl-C. */
export class CancelledError extends HubctlError {
  override readonly code = 'CANCELLED';
  override readonly exitCode = ExitCode.ERROR;
}

/** A digest did not match the bytes received. */
export class IntegrityError extends HubctlError {
  override readonly code = 'DIGEST_MISMATCH';
  override readonly exitCode = ExitCode.ERROR;
}

/**
 * An HTTP answer that was not a success. `apiCode` is the server's own code (governance
 * `error.code`, registry `errors[0].code`); `message` already reads "code: message".
 */
export class ApiError extends HubctlError {
  override readonly code: string;
  override readonly exitCode: ExitCodeValue;
  readonly status: number;
  readonly apiCode?: string;
  readonly url?: string;

  constructor(message: string, init: { status: number; apiCode?: string; url?: string } & ErrorDetails) {
    super(message, init);
    this.status = init.status;
    this.apiCode = init.apiCode;
    this.url = init.url;
    this.code = init.apiCode ? init.apiCode.toUpperCase() : `HTTP_${init.status}`;
    this.exitCode = exitCodeForStatus(init.status, init.apiCode);
  }
}

export function exitCodeForStatus(status: number, apiCode?: string): ExitCodeValue {
  const code = apiCode?.toLowerCase();
  if (code === 'limit_exceeded' || code === 'denied_limit') return ExitCode.CONFLICT;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 409) return ExitCode.CONFLICT;
  if (status === 400 || status === 422) return ExitCode.USAGE;
  if (status === 429 || status >= 500) return ExitCode.NETWORK;
  return ExitCode.ERROR;
}

export function exitCodeFor(err: unknown): ExitCodeValue {
  if (err instanceof HubctlError) return err.exitCode;
  return ExitCode.ERROR;
}
