// `image inspect docker-daemon:NAME[:TAG]`: the engine's view of an image, the same at every API version.
import type { Context } from '../../context.js';
import { formatBytes } from '../../output/progress.js';

export async function runEngineInspect(ctx: Context, name: string): Promise<void> {
  const { inspectEngineImage } = await import('../../api/engine/images.js');
  const image = await inspectEngineImage(await ctx.engine(), name);
  if (ctx.output.json) {
    ctx.output.printJson({ reference: `docker-daemon:${name}`, ...image });
    return;
  }
  const c = image.Config;
  const words = (v: unknown) => (Array.isArray(v) ? JSON.stringify(v) : '');
  await ctx.output.fields([
    ['Reference', `docker-daemon:${name}`],
    ['ID', image.Id],
    ['Tags', image.RepoTags.join(', ')],
    ['Digests', image.RepoDigests.join(', ')],
    ['Platform', [image.Os, image.Architecture, image.Variant].filter(Boolean).join('/') || 'unknown'],
    ['Created', ctx.output.time(image.Created)],
    ['Size', image.Size === null ? '' : formatBytes(image.Size)],
    ['Entrypoint', words(c.Entrypoint)],
    ['Cmd', words(c.Cmd)],
    ['User', typeof c.User === 'string' ? c.User : ''],
    ['Working dir', typeof c.WorkingDir === 'string' ? c.WorkingDir : ''],
    ['Env', Array.isArray(c.Env) ? c.Env.join(' ') : ''],
    [
      'Labels',
      c.Labels
        ? Object.entries(c.Labels as Record<string, string>)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')
        : '',
    ],
    ['Layers', String(image.RootFS?.Layers.length ?? 0)],
  ]);
}
