#!/usr/bin/env node
// CommonJS (bin/package.json), like dist/: on node 20 an ES module entry alone costs ~40% of a bare
// `node -e 0` in ESM loader start-up (scripts/build.mjs says more).
'use strict';

require('../dist/cli.js')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
