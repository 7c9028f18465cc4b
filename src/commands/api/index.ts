// `hubctl api PATH`: the escape hatch, as `gh api` is. The group itself takes the path (no verb).
import type { Command } from 'commander';
import { parseField, parseHeader, parseService } from '../../api/raw.js';
import { UsageError } from '../../errors.js';
import { type CommandHost, collectRepeat, examples } from '../host.js';
import { type ApiOptions, run } from './request.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

interface RawOptions {
  service: string;
  method?: string;
  header?: string[];
  rawField?: string[];
  field?: string[];
  input?: string;
  paginate?: boolean;
  include?: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  group
    .argument('<path>', 'path below the service (/v2/access-tokens), or a URL on its origin')
    .option('--service <name>', 'hub (default), governance, audit, or registry:HOST', 'hub')
    .option('-X, --method <method>', 'HTTP method (default GET; POST with fields or --input)')
    .option(
      '-H, --header <header>',
      "a request header 'Name: value' (repeatable; never Authorization)",
      collectRepeat,
    )
    .option(
      '-f, --raw-field <key=value>',
      'a string field (repeatable): the JSON body, or the query of a GET',
      collectRepeat,
    )
    .option(
      '-F, --field <key=value>',
      'a typed field: true, false, null and numbers as JSON (repeatable)',
      collectRepeat,
    )
    .option('--input <file>', "the request body from a file, or '-' for standard input")
    .option('--paginate', 'follow next, next_page_token and Link rel="next"; print every item as one array')
    .option('-i, --include', 'print the status line and the response headers first')
    .action((path: string, o: RawOptions) => host.run((ctx) => runner(ctx, apiOptions(path, o))));
  return examples(group, [
    "hubctl api /v2/access-tokens --jq '.results[] | [.uuid, .token_label] | @tsv'",
    "hubctl api --service governance '/orgs/{org}/governance/policies' --paginate --jq '.[].name'",
    'hubctl api --service registry:localhost:5000 /v2/team/app/tags/list --paginate',
    'hubctl api -X PATCH /v2/access-tokens/UUID -F is_active=false',
    'hubctl api --service audit /v1/audit-logs/acme --include',
  ]);
}

export function apiOptions(path: string, o: RawOptions): ApiOptions {
  const service = parseService(o.service);
  const headers = Object.fromEntries((o.header ?? []).map(parseHeader));
  const fields = [
    ...(o.rawField ?? []).map((f) => parseField(f, false)),
    ...(o.field ?? []).map((f) => parseField(f, true)),
  ];
  if (o.input !== undefined && fields.length > 0) {
    throw new UsageError('--input and fields (-f, -F) cannot be used together: both are the body');
  }
  const method = (o.method ?? (fields.length > 0 || o.input !== undefined ? 'POST' : 'GET')).toUpperCase();
  if (!(METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`-X must be one of ${METHODS.join(', ')} (got "${o.method}")`);
  }
  if (o.paginate && method !== 'GET') throw new UsageError('--paginate follows pages of a GET only');
  if (o.input !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new UsageError(`--input sends a body, which a ${method} does not have`);
  }
  return {
    path,
    service,
    method: method as ApiOptions['method'],
    headers,
    fields,
    ...(o.input === undefined ? {} : { input: o.input }),
    paginate: Boolean(o.paginate),
    include: Boolean(o.include),
  };
}
