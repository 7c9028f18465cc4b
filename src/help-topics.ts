// `hubctl help TOPIC`: what no single command's --help says. Plain text, no imports: src/cli.ts
// answers these without loading commander. test/arch/help-topics.test.ts checks that the
// environment topic names every variable src/ reads.

/** The exit codes of decisions §7, as the end of the root --help says them. */
export const EXIT_CODES_SHORT = [
  'Exit codes: 0 ok, 1 error, 2 usage or invalid input, 3 denied (policy eval),',
  '4 authentication or permission, 5 not found, 6 conflict or limit, 7 network or server,',
  '10 differs (policy diff). More: hubctl help exit-codes | environment | formats',
].join('\n');

const EXIT_CODES = `Exit codes

   0  success
   1  an error not listed below (a declined confirmation, a jq error in --jq)
   2  usage or invalid input, caught before any request (a bad flag, file, rule, --jq
      expression); policy eval: cannot decide (--batch: some line could not be)
   3  policy eval: denied
   4  authentication or permission (401, 403)
   5  not found
   6  conflict or limit exceeded
   7  network or server failure after retries, or an answer hubctl cannot read
  10  policy diff: the organization differs from the files (not an error)
 130  interrupted (Ctrl-C)
`;

const ENVIRONMENT = `Environment variables hubctl reads

Precedence: flag > environment > profile > default.

  HUBCTL_BASE_URL          hub API base address (--base-url; default https://hub.docker.com)
  HUBCTL_GOVERNANCE_URL    governance API base address (--governance-url; default {base-url}/v2)
  HUBCTL_AUDIT_URL         audit API base address (default https://api.docker.com)
  HUBCTL_AUDIT_TOKEN       organization access token for the audit log (never exchanged)
  HUBCTL_AUDIT_MAX_RPM     audit API requests a minute this run may use (default: half the org's)
  HUBCTL_ORG               organization (--org)
  HUBCTL_PROFILE           configuration profile (--profile; default "default")
  HUBCTL_USERNAME          hub account, with HUBCTL_TOKEN
  HUBCTL_TOKEN             hub secret (password, personal or organization access token)
  HUBCTL_CONFIG_DIR        configuration directory (default $XDG_CONFIG_HOME/hubctl)
  HUBCTL_CREDENTIAL_STORE  where auth login stores secrets: file or a docker-credential helper
  HUBCTL_JWT_CACHE         "off": keep hub JWTs in memory only
  HUBCTL_HTTP_TIMEOUT      seconds without a byte before a request is given up (default 30)
  HUBCTL_JQ_TIMEOUT        seconds --jq may run on one document (default 30)
  HUBCTL_PLATFORM          the platform images are chosen for (default this machine's, linux/ARCH)
  HUBCTL_CHUNK_SIZE        bytes per chunk of a chunked blob upload
  HUBCTL_MONOLITHIC_MAX    blobs up to this size are uploaded in one request
  HUBCTL_REGISTRY_MIRRORS  "off": ignore the profiles' registry mirrors (registry.HOST.mirror)

  DOCKER_CONFIG            directory of the docker CLI's config.json (registry credentials)
  DOCKER_AUTH_CONFIG       a config.json document in the environment (registry credentials)
  DOCKER_HOST              the container engine (--engine-host): unix://PATH or tcp://HOST:PORT
  DOCKER_API_VERSION       pin the engine API version instead of negotiating it
  DOCKER_TLS_VERIFY        verify the engine's TLS certificate (tcp:// engines)
  DOCKER_CERT_PATH         the engine's client certificate and CA (ca.pem, cert.pem, key.pem)

  HTTPS_PROXY, HTTP_PROXY  proxy for https:// and http:// requests (lower case too; it wins)
  NO_PROXY                 hosts, domains and CIDRs reached directly (lower case too)
  NODE_EXTRA_CA_CERTS      extra CA certificates (PEM) to trust, as --ca-file
  NO_COLOR                 never colour output (as --no-color)
  FORCE_COLOR              colour even when stdout is not a terminal ("0": never)
  HOME                     where ~ is (~/.docker, ~/.config, ~/.cache, policy paths)
  XDG_CONFIG_HOME          base of the configuration directory (default ~/.config)
  XDG_STATE_HOME           base of resumable state: unfinished uploads (default ~/.local/state),
                           and of the sandboxes' local audit files (audit --local)
  USERPROFILE              where ~ is on Windows, when HOME is unset (audit --local)
  LOCALAPPDATA             the sandboxes' local audit files on Windows (audit --local)
  XDG_CACHE_HOME           base of the compile cache (default ~/.cache)
`;

const FORMATS = `Output formats

Tables (the default)
  On a terminal: aligned columns with a header, colour (not with --no-color or NO_COLOR), times
  in a short UTC form. Piped: one tab-separated line per row, no header, no colour, times in
  ISO 8601: ready for cut, awk and while read.

--json
  The API objects on stdout and nothing else there: every list command prints a JSON array (one
  page, --all or filtered), every other command one object. Paging hints and progress go to
  stderr. Errors are {"error":{"code","message","hint"}} on stderr.

--jq EXPR
  Implies --json, and prints what "hubctl ... --json | jq -r EXPR" prints: jq itself (jq 1.8)
  runs inside hubctl. Strings print raw, other values as indented JSON, one output a line.
    hubctl token list --all --jq '.[] | [.uuid, .token_label] | @tsv'
    hubctl policy get egress --jq '.allowlist_v0.rules[].name'
  An expression that does not compile exits 2 before any request.

policy eval --batch
  Reads one request a line on stdin and writes one JSON decision a line (NDJSON) on stdout.

policy export --format yaml|json
  Policies in the authoring form that policy diff and policy apply read.
`;

export const HELP_TOPICS: Readonly<Record<string, string>> = {
  'exit-codes': EXIT_CODES,
  environment: ENVIRONMENT,
  formats: FORMATS,
};
