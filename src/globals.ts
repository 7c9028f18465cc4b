// The global options, apart from the context: the command tree needs them for `--help` without
// loading the context (and what it imports).

/** The global options of decisions §1 and §7, as parsed. */
export interface GlobalOptions {
  json: boolean;
  /** --jq: the expression every JSON document printed goes through (json is then true). */
  jq?: string;
  org?: string;
  profile?: string;
  baseUrl?: string;
  governanceUrl?: string;
  debug: boolean;
  color: boolean;
  quiet: boolean;
  yes: boolean;
  caFile?: string;
  /** Registry hosts to reach over plain HTTP, besides loopback. */
  plainHttp: string[];
  /** The container engine's address (overrides DOCKER_HOST). */
  engineHost?: string;
}

export const DEFAULT_GLOBALS: GlobalOptions = {
  json: false,
  debug: false,
  color: true,
  quiet: false,
  yes: false,
  plainHttp: [],
};
