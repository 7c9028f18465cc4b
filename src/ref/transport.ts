// PURE: where an image lives, as `image copy SRC DST` and friends read it. The forms are those of
// skopeo and containers/image: a bare reference or `docker://REF` (a registry), `oci:DIR[:TAG]`,
// `oci-archive:FILE[:TAG]`, `docker-archive:FILE[:REF]` and `docker-daemon:REF` (the engine).
//
// PLACES is the one table of them: the PlaceRef union, parsePlace, formatPlace, tagOf and the help
// text derive from it. A new kind of place is one entry here plus its back end, which
// image/places.ts opens (its switches fail to compile until the new kind has a case).

import { UsageError, ValidationError } from '../errors.js';
import { type ImageReference, parseReference, TAG_PATTERN } from './reference.js';

export interface ParseOptions {
  /** As in parseReference: whether a registry reference without tag or digest gets `latest`. */
  defaultTag?: boolean;
}

/** One kind of place; `F` is what its text after the prefix is read into. */
export interface PlaceKind<F> {
  /** What the place's text starts with (`oci:`); a registry may also be written bare. */
  readonly prefix: string;
  /** The forms shown in help and errors (`oci:DIR[:TAG]`). */
  readonly forms: readonly string[];
  /** What it is, for help (`an OCI image layout directory`). */
  readonly about: string;
  /** An example, as formatPlace writes it back (the table's test reads and writes each). */
  readonly example: string;
  /** A file or folder of this machine, or its container engine: what `pull` writes and `push` reads. */
  readonly local: boolean;
  /** `input` is the whole text (for messages), `rest` what follows the prefix. */
  parse(input: string, rest: string, opts: ParseOptions): F;
  /** The place's text as parsePlace reads it back (a registry in its canonical, bare form). */
  format(fields: F, formatRef: (r: ImageReference) => string): string;
  /** The tag a destination without its own takes from this place as a source, if it names one. */
  tag(fields: F): string | undefined;
}

const kind = <F>(k: PlaceKind<F>): PlaceKind<F> => k;

const TAG_RE = new RegExp(`^${TAG_PATTERN}$`);
const INDEX_RE = /^@\d{1,6}$/;

/** `PATH[:TAG]`, split at the last colon when what follows looks like a tag (`oci:/tmp/x:v1`). */
function pathAndTag(input: string, rest: string, what: string): { path: string; tag?: string } {
  const colon = rest.lastIndexOf(':');
  if (colon > 0) {
    const tag = rest.slice(colon + 1);
    if (!TAG_RE.test(tag))
      throw new ValidationError(`invalid location "${input}": tag "${tag}" must match ${TAG_PATTERN}`);
    return { path: rest.slice(0, colon), tag };
  }
  if (rest === '' || colon === 0)
    throw new ValidationError(`invalid location "${input}": the ${what} is empty`);
  return { path: rest };
}

/**
 * `FILE[:REF]`, split at the first colon as skopeo does (REF may hold colons: `app:1`). `ref` is a
 * `name:tag` in the archive's RepoTags, or `@N` (the N-th image, from 0).
 */
function fileAndRef(input: string, rest: string): { path: string; ref?: string } {
  const colon = rest.indexOf(':');
  const path = colon < 0 ? rest : rest.slice(0, colon);
  if (path === '') throw new ValidationError(`invalid location "${input}": the file name is empty`);
  if (colon < 0) return { path };
  const ref = rest.slice(colon + 1);
  if (!INDEX_RE.test(ref)) parseReference(ref); // a readable error for a malformed name:tag
  return { path, ref };
}

const withTag = (path: string, tag: string | undefined) => `${path}${tag ? `:${tag}` : ''}`;

/** Every kind of place, in the order help lists them. */
export const PLACES = {
  registry: kind<{ ref: ImageReference }>({
    prefix: 'docker://',
    forms: ['REGISTRY/REPO:TAG', 'docker://REF'],
    about: 'a registry (docker.io when no host is named)',
    example: 'localhost:5000/team/app:1',
    local: false,
    parse: (_input, rest, opts) => ({ ref: parseReference(rest, opts) }),
    format: (f, formatRef) => formatRef(f.ref),
    tag: (f) => f.ref.tag,
  }),
  oci: kind<{ path: string; tag?: string }>({
    prefix: 'oci:',
    forms: ['oci:DIR[:TAG]'],
    about: 'an OCI image layout directory',
    example: 'oci:./build:1',
    local: true,
    parse: (input, rest) => pathAndTag(input, rest, 'directory'),
    format: (f) => `oci:${withTag(f.path, f.tag)}`,
    tag: (f) => f.tag,
  }),
  'oci-archive': kind<{ path: string; tag?: string }>({
    prefix: 'oci-archive:',
    forms: ['oci-archive:FILE[:TAG]'],
    about: 'an OCI image layout in a tar file',
    example: 'oci-archive:app.tar:1',
    local: true,
    parse: (input, rest) => pathAndTag(input, rest, 'file name'),
    format: (f) => `oci-archive:${withTag(f.path, f.tag)}`,
    tag: (f) => f.tag,
  }),
  'docker-archive': kind<{ path: string; ref?: string }>({
    prefix: 'docker-archive:',
    forms: ['docker-archive:FILE[:REF]'],
    about: 'a tar file of `docker save` (REF: name:tag or @N)',
    example: 'docker-archive:app.tar:app:1',
    local: true,
    parse: (input, rest) => fileAndRef(input, rest),
    format: (f) => `docker-archive:${f.path}${f.ref ? `:${f.ref}` : ''}`,
    tag: () => undefined,
  }),
  'docker-daemon': kind<{ ref: string }>({
    prefix: 'docker-daemon:',
    forms: ['docker-daemon:REF'],
    about: 'the container engine (docker, podman)',
    example: 'docker-daemon:app:1',
    local: true,
    parse: (input, rest) => {
      if (rest === '') throw new ValidationError(`invalid location "${input}": the image is empty`);
      return { ref: rest };
    },
    format: (f) => `docker-daemon:${f.ref}`,
    tag: () => undefined,
  }),
};

export type Transport = keyof typeof PLACES;

type FieldsOf<K extends Transport> = (typeof PLACES)[K] extends PlaceKind<infer F> ? F : never;

export type PlaceRef = {
  [K in Transport]: { readonly transport: K } & Readonly<FieldsOf<K>>;
}[Transport];

const KINDS = Object.keys(PLACES) as Transport[];
const placeKind = (t: Transport) => PLACES[t] as PlaceKind<object>;
const LOCAL_KINDS = KINDS.filter((t) => placeKind(t).local);

/** `a, b, c or d` */
function either(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** Every form a place may take, for help and errors. */
export const PLACE_FORMS = either(KINDS.flatMap((t) => placeKind(t).forms));

/** The forms of the places of this machine (what `pull` writes and `push` reads). */
export const LOCAL_FORMS = either(LOCAL_KINDS.flatMap((t) => placeKind(t).forms));

/** The prefixes of the places of this machine: `oci:, oci-archive:, …`. */
export const LOCAL_PREFIXES = LOCAL_KINDS.map((t) => placeKind(t).prefix).join(', ');

/** A help section: one line per kind of place (all, or those of this machine), forms and meaning. */
export function placesHelp(which: 'all' | 'local'): string {
  const rows = (which === 'all' ? KINDS : LOCAL_KINDS).map((t): [string, string] => [
    placeKind(t).forms.join(', '),
    placeKind(t).about,
  ]);
  const width = Math.max(...rows.map(([forms]) => forms.length));
  return `\nPlaces:\n${rows.map(([forms, about]) => `  ${forms.padEnd(width)}  ${about}`).join('\n')}`;
}

const OTHER_TRANSPORTS = ['dir', 'containers-storage', 'ostree', 'sif', 'tarball', 'docker', 'file'];

/**
 * Parses a place. A bare reference and `docker://REF` are a registry; `opts.defaultTag` as in
 * parseReference. Anything else with a `word:` prefix that is not a registry host names its forms.
 */
export function parsePlace(input: string, opts: ParseOptions = {}): PlaceRef {
  for (const transport of KINDS) {
    const { prefix } = placeKind(transport);
    if (input.startsWith(prefix))
      return Object.freeze({
        transport,
        ...placeKind(transport).parse(input, input.slice(prefix.length), opts),
      }) as PlaceRef;
  }
  // Other tools' transports (`dir:x`, `containers-storage:x`) would parse as a name:tag; a path
  // would fail with a complaint about a path component. Both are told the forms instead.
  const scheme = /^([a-z][a-z0-9-]*):(?!\d)/.exec(input)?.[1];
  if ((scheme && OTHER_TRANSPORTS.includes(scheme)) || /^(\.{0,2}\/|~)/.test(input))
    throw new UsageError(`"${input}" is not an image location hubctl reads: write ${PLACE_FORMS}`);
  return Object.freeze({ transport: 'registry', ...PLACES.registry.parse(input, input, opts) });
}

/** The place as parsePlace reads it back (a registry in its canonical form). */
export function formatPlace(p: PlaceRef, formatRef: (r: ImageReference) => string): string {
  return placeKind(p.transport).format(p, formatRef);
}

/** What a destination without its own tag is named after: the source's tag, as skopeo and docker do. */
export function tagOf(p: PlaceRef): string | undefined {
  return placeKind(p.transport).tag(p);
}
