// A small notion of "registrable domain" for `policy suggest`, which must never propose a wildcard
// broader than one: not the Public Suffix List (thousands of entries, a moving target), but the
// suffixes that matter most, erring on the side of a narrower rule. PURE: no IO.
//
// A suffix is, in order: one of the names below (hosting platforms where each subdomain belongs to
// someone else: github.io, herokuapp.com…); a country-code TLD's common second level (`co.uk`,
// `com.au`, `gob.mx`: any two-letter TLD under one of SECOND_LEVEL); else the last label alone.
// A name this list does not know can only make a suggestion narrower than it could be, except a
// private suffix missing here: the README says so, and every suggestion is for a person to review.

const SUFFIXES = new Set([
  // hosting platforms: each subdomain is a different owner
  'github.io',
  'githubusercontent.com',
  'gitlab.io',
  'pages.dev',
  'workers.dev',
  'r2.dev',
  'netlify.app',
  'vercel.app',
  'herokuapp.com',
  'fly.dev',
  'onrender.com',
  'web.app',
  'firebaseapp.com',
  'appspot.com',
  'blogspot.com',
  'azurewebsites.net',
  'cloudapp.net',
  'azureedge.net',
  'cloudfront.net',
  'amazonaws.com',
  's3.amazonaws.com',
  'elasticbeanstalk.com',
  'ngrok.io',
  'ngrok-free.app',
  'readthedocs.io',
  'surge.sh',
  'glitch.me',
  'repl.co',
  'deno.dev',
  'trycloudflare.com',
  // multi-label public suffixes outside the two-letter pattern below
  'us.com',
  'eu.com',
  'uk.com',
]);

/** Second levels that are public under most two-letter (country) TLDs. */
const SECOND_LEVEL = new Set([
  'co',
  'com',
  'net',
  'org',
  'gov',
  'edu',
  'ac',
  'ne',
  'or',
  'go',
  'gob',
  'mil',
  'nic',
  'ltd',
  'plc',
  'sch',
  'nom',
  'gen',
  'biz',
  'info',
  'web',
  'int',
  'lg',
  'ed',
  'gr',
]);

/** The number of labels of the public suffix of a lower-case hostname (at least 1). */
export function suffixLabels(host: string): number {
  const labels = host.split('.');
  // the longest listed suffix wins
  for (let n = Math.min(labels.length, 3); n >= 2; n--) {
    if (SUFFIXES.has(labels.slice(-n).join('.'))) return n;
  }
  const tld = labels[labels.length - 1] ?? '';
  if (labels.length >= 2 && tld.length === 2 && SECOND_LEVEL.has(labels[labels.length - 2]!)) return 2;
  return 1;
}

/**
 * True when `name` is one registrable domain or a name under one: a wildcard `*.name` then stays
 * inside one registrable domain. False for a public suffix itself (`co.uk`, `github.io`, `com`).
 */
export function isWithinRegistrable(name: string): boolean {
  return name.split('.').length > suffixLabels(name);
}
