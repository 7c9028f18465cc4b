// The global options as a table (src/commands/option-table.ts): commander adds them to the program
// (src/program.ts), and the commander-free `policy eval` path (src/cli.ts) reads them from the same
// table, with the same checks.
import { type OptionSpec, valueOptionNames } from './commands/option-table.js';
import { assertProfileName, checkBaseUrl, checkOrg } from './config/values.js';
import { DEFAULT_GLOBALS, type GlobalOptions } from './globals.js';

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '--json', description: 'print JSON objects (errors as JSON on stderr)' },
  {
    flags: '--jq <expression>',
    description: 'filter the JSON output through jq (implies --json; prints what `jq -r` would)',
  },
  {
    flags: '--org <name>',
    description: 'organization (env HUBCTL_ORG)',
    parse: (v) => checkOrg(v, '--org'),
  },
  {
    flags: '--profile <name>',
    description: 'configuration profile (env HUBCTL_PROFILE)',
    parse: (v) => assertProfileName(v, '--profile'),
  },
  {
    flags: '--base-url <url>',
    description: 'hub API base address (env HUBCTL_BASE_URL)',
    parse: (v) => checkBaseUrl(v, '--base-url'),
  },
  {
    flags: '--governance-url <url>',
    description: 'governance API base address (env HUBCTL_GOVERNANCE_URL)',
    parse: (v) => checkBaseUrl(v, '--governance-url'),
  },
  { flags: '--ca-file <path>', description: 'extra CA certificates (PEM) to trust' },
  {
    flags: '--plain-http <host>',
    description: 'reach this registry host over plain HTTP (repeatable)',
    repeat: true,
  },
  {
    flags: '--engine-host <address>',
    description: 'container engine: unix://PATH or tcp://HOST:PORT (env DOCKER_HOST)',
  },
  { flags: '--debug', description: 'trace HTTP requests on stderr, secrets redacted; show stack traces' },
  { flags: '--no-color', description: 'never colour output (also NO_COLOR)' },
  { flags: '-q, --quiet', description: 'print only data and errors' },
  { flags: '-y, --yes', description: 'answer yes to confirmations' },
];

/** The global options that take a value: an argv scan must skip their values. */
export const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = valueOptionNames(GLOBAL_OPTIONS);

/** The parsed global options, from commander's (or readFlatArgv's) attribute names. */
export function globalsFrom(opts: Record<string, unknown>): GlobalOptions {
  return {
    ...DEFAULT_GLOBALS,
    // --jq filters the JSON output, so it implies --json.
    json: Boolean(opts.json) || typeof opts.jq === 'string',
    ...(typeof opts.jq === 'string' ? { jq: opts.jq } : {}),
    org: opts.org as string | undefined,
    profile: opts.profile as string | undefined,
    baseUrl: opts.baseUrl as string | undefined,
    governanceUrl: opts.governanceUrl as string | undefined,
    debug: Boolean(opts.debug),
    color: opts.color !== false,
    quiet: Boolean(opts.quiet),
    yes: Boolean(opts.yes),
    caFile: opts.caFile as string | undefined,
    plainHttp: (opts.plainHttp as string[] | undefined) ?? [],
    engineHost: opts.engineHost as string | undefined,
  };
}
