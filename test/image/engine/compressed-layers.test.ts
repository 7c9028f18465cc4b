// The diff_id → compressed blob memory of engine pushes: kept across instances, capped, and an
// entry that is not a digest and a size is ignored rather than trusted.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CompressedLayers } from '../../../src/image/engine/compressed-layers.js';

const d = (c: string) => `sha256:${c.repeat(64)}`;

it('remembers across instances and ignores entries that are not a digest and a size', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'hubctl-cl-')), 'state', 'compressed-layers.json');
  await new CompressedLayers(file).remember(d('a'), { digest: d('b'), size: 12 });
  expect(await new CompressedLayers(file).get(d('a'))).toEqual({ digest: d('b'), size: 12 });
  expect(await new CompressedLayers(file).get(d('c'))).toBeUndefined();
  const map = JSON.parse(readFileSync(file, 'utf8'));
  map[d('c')] = { digest: 'sha256:../../etc', size: 1 };
  map[d('e')] = { digest: d('f'), size: -1 };
  writeFileSync(file, JSON.stringify(map));
  expect(await new CompressedLayers(file).get(d('c'))).toBeUndefined();
  expect(await new CompressedLayers(file).get(d('e'))).toBeUndefined();
  writeFileSync(file, '{torn');
  expect(await new CompressedLayers(file).get(d('a'))).toBeUndefined();
  await new CompressedLayers(file).remember(d('a'), { digest: d('b'), size: 12 });
  expect(await new CompressedLayers(file).get(d('a'))).toEqual({ digest: d('b'), size: 12 });
});

it('keeps the most recent 5000 layers', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'hubctl-cl-')), 'compressed-layers.json');
  const hex = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;
  writeFileSync(
    file,
    JSON.stringify(
      Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [hex(i), { digest: hex(i), size: i }])),
    ),
  );
  await new CompressedLayers(file).remember(hex(99999), { digest: d('b'), size: 1 });
  const map = JSON.parse(readFileSync(file, 'utf8'));
  expect(Object.keys(map)).toHaveLength(5000);
  expect(map[hex(0)]).toBeUndefined();
  expect(map[hex(99999)]).toEqual({ digest: d('b'), size: 1 });
});
