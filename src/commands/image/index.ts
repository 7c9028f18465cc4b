import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as attach from './attach.js';
import * as catalog from './catalog.js';
import * as copy from './copy.js';
import * as del from './delete.js';
import * as digest from './digest.js';
import * as inspect from './inspect.js';
import * as list from './list.js';
import * as pull from './pull.js';
import * as push from './push.js';
import * as ratelimit from './ratelimit.js';
import * as referrers from './referrers.js';
import * as sync from './sync.js';
import * as tags from './tags.js';

export function register(group: Command, host: CommandHost): void {
  inspect.register(group, host);
  digest.register(group, host);
  tags.register(group, host);
  catalog.register(group, host);
  list.register(group, host);
  pull.register(group, host);
  push.register(group, host);
  copy.register(group, host);
  del.register(group, host);
  referrers.register(group, host);
  attach.register(group, host);
  sync.register(group, host);
  ratelimit.register(group, host);
}
