// `auth status` for registries: every registry credential hubctl can see and where it comes from
// (DOCKER_AUTH_CONFIG, hubctl's credentials.json, the docker config file, a credential helper),
// never a secret; with a registry named, that one checked against its token service.
import type { Context } from '../../context.js';
import { AuthError } from '../../errors.js';

/** The credential the chain would use for `registry`, checked by asking the registry's token service. */
export async function checkRegistry(ctx: Context, registry: string): Promise<void> {
  const chain = await ctx.credentials();
  const cred = await chain.registry(registry);
  if (!cred)
    throw new AuthError(`no credential for ${registry}`, {
      hint: `Run "hubctl auth login ${registry}", or set DOCKER_AUTH_CONFIG.`,
    });
  const how = await (await ctx.registry()).checkLogin(registry);
  const { describeRegistrySettings } = await import('../../config/registry-settings.js');
  const settings = describeRegistrySettings(
    registry.toLowerCase(),
    (await ctx.registrySettings()).get(registry.toLowerCase()),
    {
      plainHttp: ctx.globals.plainHttp,
      caFile: ctx.globals.caFile,
      mirrorsOff: ctx.env.HUBCTL_REGISTRY_MIRRORS === 'off',
    },
  );
  const status = {
    registry,
    username: cred.username,
    source: cred.source,
    kind: cred.identityToken ? 'identity token' : 'password',
    checkedWith: how,
    valid: true,
    settings: Object.fromEntries(settings.map(([k, value, source]) => [k, { value, source }])),
  };
  if (ctx.output.json) {
    ctx.output.printJson(status);
    return;
  }
  await ctx.output.fields([
    ['Registry', registry],
    ['Account', status.username],
    ['Credential', `${status.source} (${status.kind})`],
    [
      'Checked',
      how === 'none'
        ? 'the registry asks for no credential'
        : `accepted by the ${how === 'basic' ? 'registry' : 'token service'}`,
    ],
    [
      'Settings',
      settings.length > 0 ? settings.map(([k, v, from]) => `${k}=${v} (${from})`).join(', ') : 'none',
    ],
  ]);
}

/** Every registry credential, in the order the chain consults them. */
export async function listRegistryCredentials(ctx: Context) {
  return (await ctx.credentials()).listRegistries();
}
