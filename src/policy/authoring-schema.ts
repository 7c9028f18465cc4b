// The JSON Schema of the authoring form (`hubctl policy schema`): what editors use to check and
// complete policy files through the yaml-language-server modeline. One policy, or a list of them.
// Pure data; the checks that a schema cannot say (resource grammar, canonical paths, one domain per
// policy) are made by `policy lint`, `diff` and `apply`. The keys of each object come from the
// table the strict reader checks files against (authoring-keys.ts): each key there needs its
// fragment here (the type checker says so), and no other key can appear.
import { AUTHORED_SHAPES, type AuthoredKey, type ShapeName } from './authoring-keys.js';
import { HTTP_ACTIONS, KNOWN_ACTIONS } from './model.js';

/** The properties of an object of `shape`, in the table's order, from one fragment per key. */
function properties<S extends ShapeName>(
  shape: S,
  fragments: Record<AuthoredKey<S>, object>,
): Record<string, object> {
  const out: Record<string, object> = {};
  for (const key of Object.keys(AUTHORED_SHAPES[shape].keys) as AuthoredKey<S>[]) {
    out[key as string] = fragments[key];
  }
  return out;
}

function without(props: Record<string, object>, ...keys: string[]): Record<string, object> {
  return Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));
}

const name = { type: 'string', minLength: 1, maxLength: 100 };

const httpResource = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'path'],
  properties: properties('http_resource', {
    host: {
      type: 'string',
      description:
        'a host as in a network rule, without scheme or port: api.github.com, *.github.com, **.github.com',
      pattern: '^[^:/\\s]+$',
    },
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'absent: every port' },
    path: {
      type: 'string',
      description: 'a canonical path from /: * is one segment, ** any depth; no query, fragment or %',
      pattern: '^/[^?#%\\s]*$',
    },
  }),
};

const decision = { enum: ['allow', 'deny'] };

const ruleFragments = {
  name,
  actions: {
    type: 'array',
    minItems: 1,
    items: {
      enum: [...KNOWN_ACTIONS.network.filter((a) => !HTTP_ACTIONS.includes(a)), ...KNOWN_ACTIONS.filesystem],
    },
  },
  decision,
  resources: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', minLength: 1 },
    description:
      'network: host, *.host, **.host, **, host:port, IP, CIDR; filesystem: /path or ~/path with * and **',
  },
  http_resources: { type: 'array', minItems: 1, items: httpResource },
};
const ruleProperties = properties('rule', ruleFragments);

const plainRule = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'actions', 'decision', 'resources'],
  properties: without(ruleProperties, 'http_resources'),
};

const httpRule = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'actions', 'decision', 'http_resources'],
  properties: {
    ...without(ruleProperties, 'resources'),
    actions: { type: 'array', minItems: 1, items: { enum: [...HTTP_ACTIONS] } },
  },
};

const scope = {
  type: 'object',
  additionalProperties: false,
  properties: properties('scope', {
    teams: { type: 'array', items: { type: 'string' }, description: 'team UUIDs; absent or empty: org-wide' },
  }),
};

const cedar = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: properties('cedar_v1', { text: { type: 'string' }, schema_url: { type: 'string' } }),
};

const policyProperties = properties('policy', {
  name,
  scope,
  rules: { type: 'array', maxItems: 250, items: { oneOf: [plainRule, httpRule] } },
  cedar_v1: cedar,
});

const policy = {
  type: 'object',
  oneOf: [
    {
      additionalProperties: false,
      required: ['name', 'rules'],
      properties: without(policyProperties, 'cedar_v1'),
    },
    {
      additionalProperties: false,
      required: ['name', 'cedar_v1'],
      properties: without(policyProperties, 'rules'),
    },
  ],
};

/** The schema, as `hubctl policy schema` prints it. */
export const AUTHORING_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://hubctl.dev/schema/policy.json',
  title: 'hubctl policy (authoring form)',
  description: 'One governance policy, or a list of them, as hubctl policy export writes and apply reads.',
  $defs: { policy },
  oneOf: [{ $ref: '#/$defs/policy' }, { type: 'array', maxItems: 100, items: { $ref: '#/$defs/policy' } }],
};
