// Schemas of a registry's own JSON: the token service's answer, the tag list and the catalog
// (interface.md "Registry objects"). The OCI documents' schemas (manifests, indexes, descriptors)
// are in oci/schemas.ts.
import { object, v } from '../answer.js';

/** `GET /v2/<name>/tags/list`: `tags` may be null for a repository with none. */
export const TagListAnswer = object({ tags: v.nullish(v.array(v.string()), null) });

/** The token service's answer: `token` or `access_token` (the distribution spec's two names). */
export const RegistryTokenAnswer = v.pipe(
  object({
    token: v.nullish(v.string()),
    access_token: v.nullish(v.string()),
    expires_in: v.nullish(v.number()),
  }),
  v.check((b) => Boolean(b.token || b.access_token), 'no token in token or access_token'),
);

/** `GET /v2/_catalog`: the repositories of a registry, one page. */
export const CatalogAnswer = v.looseObject({ repositories: v.nullish(v.array(v.string()), null) });
