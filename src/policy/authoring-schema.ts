// The JSON Schema of the authoring form (`hubctl policy schema`): what editors use to check and
// complete policy files through the yaml-language-server modeline. One policy, or a list of them.
// Pure data; the checks that a schema cannot say (resource grammar, canonical paths, one domain per
// policy) are made by `policy lint`, `diff` and `apply`.
import { HTTP_ACTIONS, KNOWN_ACTIONS } from './model.js';

const name = { type: 'string', minLength: 1, maxLength: 100 };

const httpResource = {
  type: 'object',
  additionalProperties: false,
  required: ['host', 'path'],
  properties: {
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
  },
};

const decision = { enum: ['allow', 'deny'] };

const plainRule = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'actions', 'decision', 'resources'],
  properties: {
    name,
    actions: {
      type: 'array',
      minItems: 1,
      items: {
        enum: [
          ...KNOWN_ACTIONS.network.filter((a) => !HTTP_ACTIONS.includes(a)),
          ...KNOWN_ACTIONS.filesystem,
        ],
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
  },
};

const httpRule = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'actions', 'decision', 'http_resources'],
  properties: {
    name,
    actions: { type: 'array', minItems: 1, items: { enum: [...HTTP_ACTIONS] } },
    decision,
    http_resources: { type: 'array', minItems: 1, items: httpResource },
  },
};

const scope = {
  type: 'object',
  additionalProperties: false,
  properties: {
    teams: { type: 'array', items: { type: 'string' }, description: 'team UUIDs; absent or empty: org-wide' },
  },
};

const policy = {
  type: 'object',
  oneOf: [
    {
      additionalProperties: false,
      required: ['name', 'rules'],
      properties: {
        name,
        scope,
        rules: { type: 'array', maxItems: 250, items: { oneOf: [plainRule, httpRule] } },
      },
    },
    {
      additionalProperties: false,
      required: ['name', 'cedar_v1'],
      properties: {
        name,
        scope,
        cedar_v1: {
          type: 'object',
          additionalProperties: false,
          required: ['text'],
          properties: { text: { type: 'string' }, schema_url: { type: 'string' } },
        },
      },
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
