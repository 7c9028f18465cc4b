import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as apply from './apply.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as diff from './diff.js';
import * as evaluate from './eval.js';
import * as exportPolicies from './export.js';
import * as get from './get.js';
import * as lint from './lint.js';
import * as list from './list.js';
import * as replay from './replay.js';
import * as schema from './schema.js';
import * as suggest from './suggest.js';
import * as test from './test.js';
import * as update from './update.js';

export function register(group: Command, host: CommandHost): void {
  list.register(group, host);
  get.register(group, host);
  create.register(group, host);
  update.register(group, host);
  del.register(group, host);
  evaluate.register(group, host);
  lint.register(group, host);
  exportPolicies.register(group, host);
  diff.register(group, host);
  apply.register(group, host);
  schema.register(group, host);
  test.register(group, host);
  replay.register(group, host);
  suggest.register(group, host);
}
