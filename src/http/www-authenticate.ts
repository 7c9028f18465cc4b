// WWW-Authenticate: `Bearer realm="https://auth",service="registry",scope="repository:a:pull",error="..."`.

export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

const TOKEN = /[\w!#$%&'*+.^`|~-]/;

/** Parses one or more challenges; parameter names are lower-cased, quoted values unescaped. */
export function parseWwwAuthenticate(header: string | undefined): Challenge[] {
  if (!header) return [];
  const challenges: Challenge[] = [];
  let i = 0;
  const skip = (chars: string) => {
    while (i < header.length && chars.includes(header[i]!)) i++;
  };
  const token = () => {
    const start = i;
    while (i < header.length && TOKEN.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  while (i < header.length) {
    skip(' ,\t');
    const word = token();
    if (!word) {
      i++;
      continue;
    }
    skip(' \t');
    if (header[i] === '=' && challenges.length > 0) {
      i++;
      skip(' \t');
      let value = '';
      if (header[i] === '"') {
        i++;
        while (i < header.length && header[i] !== '"') {
          if (header[i] === '\\') i++;
          value += header[i] ?? '';
          i++;
        }
        i++;
      } else {
        value = token();
      }
      challenges[challenges.length - 1]!.params[word.toLowerCase()] = value;
    } else {
      challenges.push({ scheme: word.toLowerCase() === 'bearer' ? 'Bearer' : word, params: {} });
    }
  }
  return challenges;
}

export function bearerChallenge(header: string | undefined): Record<string, string> | undefined {
  return parseWwwAuthenticate(header).find((c) => c.scheme === 'Bearer')?.params;
}
