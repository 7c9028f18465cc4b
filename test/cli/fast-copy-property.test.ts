// The commander-free `image copy SRC DST` (src/commands/image/fast-copy.ts) against commander, over
// generated argv of global options, words and a few of copy's own options: whatever the fast path
// takes must reach the transfer exactly as commander's action hands it over (the same global
// options, the same places and settings), and fail, when it fails, with the same words and code.
// The transfer and the context are replaced by recorders (a file of its own: vi.mock is per file).
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

const calls: unknown[] = [];

vi.mock('../../src/context.js', async (original) => ({
  ...(await original<typeof import('../../src/context.js')>()),
  openContext: async (_deps: unknown, globals: unknown) => ({ globals }),
}));
vi.mock('../../src/commands/image/shared.js', async (original) => ({
  ...(await original<typeof import('../../src/commands/image/shared.js')>()),
  runTransfer: async (ctx: { globals: unknown }, verb: string, opts: unknown) => {
    calls.push({ globals: ctx.globals, verb, opts });
  },
}));
vi.mock('../../src/commands/image/copy-all-tags.js', () => ({
  runAllTags: async (ctx: { globals: unknown }, opts: unknown) => {
    calls.push({ globals: ctx.globals, verb: 'all-tags', opts });
    return 0;
  },
}));

const { readCopyArgv } = await import('../../src/commands/image/fast-copy.js');
const { runCli } = await import('../support/run-cli.js');

async function reading(argv: string[], commanderOnly: boolean) {
  calls.length = 0;
  const r = await runCli(argv, { commanderOnly, env: { HUBCTL_PLATFORM: 'linux/arm64' } });
  // --debug's stack traces name the two parsers' frames: the rest must be the same.
  const stderr = r.stderr.replace(/^ +at .*\n/gm, '');
  return { ...r, stderr, calls: [...calls] };
}

function taken(argv: string[]): boolean {
  try {
    return readCopyArgv(argv) !== undefined;
  } catch {
    return true;
  }
}

const word = fc.constantFrom(
  'image',
  'copy',
  'oci:a:1',
  'oci:b:1',
  'localhost:5000/x:1',
  'h:5000/y',
  'help',
  '-',
  'a b',
);
const takenOption = fc.constantFrom(
  ['--json'],
  ['--debug'],
  ['--no-color'],
  ['-q'],
  ['--quiet'],
  ['-y'],
  ['--yes'],
  ['--org', 'acme'],
  ['--org=acme'],
  ['--org', 'image'],
  ['--org', 'copy'],
  ['--org', 'Bad Org'],
  ['--org='],
  ['--profile', 'p1'],
  ['--profile', '../etc'],
  ['--profile=copy'],
  ['--jq', '.'],
  ['--jq', 'image'],
  ['--jq=.x'],
  ['--plain-http', 'h:5000'],
  ['--plain-http=127.0.0.1:1'],
  ['--plain-http', 'copy'],
  ['--ca-file', '/nonexistent/ca.pem'],
  ['--engine-host', 'unix:///x'],
  ['--base-url', 'http://127.0.0.1:1'],
  ['--base-url', 'not a url'],
  ['--governance-url=https://g.example'],
);
const globalOption = fc.oneof(
  takenOption,
  fc.constantFrom(
    ['--'],
    ['-qy'],
    ['--json=1'],
    ['--color'],
    ['--no-json'],
    ['--unknown'],
    ['-x=y'],
    ['--help'],
    ['-h'],
    ['--version'],
    ['-V'],
    ['--org'],
    ['--org', '--json'],
    ['--platform', 'linux/amd64'],
    ['--concurrency', '2'],
    ['--concurrency=0'],
    ['--all-tags'],
    ['--referrers'],
  ),
);
const piece = fc.oneof(
  { weight: 3, arbitrary: word.map((w) => [w]) },
  { weight: 2, arbitrary: globalOption },
);
const some = fc.array(takenOption, { maxLength: 2 }).map((o) => o.flat());
const argvs = fc.oneof(
  // The plain form, global options anywhere.
  fc
    .tuple(some, some, word, some, word, some)
    .map(([a, b, src, c, dst, d]) => [...a, 'image', 'copy', ...b, src, ...c, dst, ...d]),
  // Mostly the shape the fast path is for: options around `image copy SRC DST`.
  fc
    .tuple(fc.array(globalOption, { maxLength: 3 }), fc.array(piece, { minLength: 1, maxLength: 5 }))
    .map(([before, after]) => [...before.flat(), 'image', 'copy', ...after.flat()]),
  fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.flat()),
);

describe('image copy without commander, generated argv', () => {
  it('takes only what commander reads the same way, and hands the transfer the same', async () => {
    let took = 0;
    await fc.assert(
      fc.asyncProperty(argvs, async (argv) => {
        const fast = await reading(argv, false);
        const commander = await reading(argv, true);
        if (taken(argv)) took++;
        expect(fast).toEqual(commander);
      }),
      { numRuns: 1000 },
    );
    // The generator reaches the fast path often enough to say something.
    expect(took).toBeGreaterThan(200);
  });
});
