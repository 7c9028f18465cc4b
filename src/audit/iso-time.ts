// Audit event times in the canonical UTC form, read without Date.parse and written back: a replay
// group keeps the milliseconds of its first and last events, not their strings. PURE: no IO.
//
// Canonical: `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.mmmZ` (what toISOString writes), with a
// real date and time of day (no 24:00, no second 60, no 30 February). For such a string `isoMs` is
// Date.parse's number and `isoText` gives the string back; for any other it is NaN and the caller
// keeps to Date.parse and the string.

const ZERO = 0x30;

/** The digit at i, or -1. */
function digit(s: string, i: number): number {
  const d = s.charCodeAt(i) - ZERO;
  return d >= 0 && d <= 9 ? d : -1;
}

/** The two-digit number at i, or -1. */
function two(s: string, i: number): number {
  const a = digit(s, i);
  const b = digit(s, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Date.parse(s) for a canonical time (above); NaN for any other string. */
export function isoMs(s: string): number {
  const n = s.length;
  if (n !== 20 && n !== 24) return Number.NaN;
  if (
    s.charCodeAt(4) !== 0x2d ||
    s.charCodeAt(7) !== 0x2d ||
    s.charCodeAt(10) !== 0x54 ||
    s.charCodeAt(13) !== 0x3a ||
    s.charCodeAt(16) !== 0x3a ||
    s.charCodeAt(n - 1) !== 0x5a
  )
    return Number.NaN;
  const hi = two(s, 0);
  const lo = two(s, 2);
  const m = two(s, 5);
  const d = two(s, 8);
  const hh = two(s, 11);
  const mm = two(s, 14);
  const ss = two(s, 17);
  if (
    hi < 0 ||
    lo < 0 ||
    m < 1 ||
    m > 12 ||
    d < 1 ||
    hh < 0 ||
    hh > 23 ||
    mm < 0 ||
    mm > 59 ||
    ss < 0 ||
    ss > 59
  )
    return Number.NaN;
  const y = hi * 100 + lo;
  if (d > daysInMonth(y, m)) return Number.NaN;
  let ms = 0;
  if (n === 24) {
    const a = digit(s, 20);
    const b = digit(s, 21);
    const c = digit(s, 22);
    if (s.charCodeAt(19) !== 0x2e || a < 0 || b < 0 || c < 0) return Number.NaN;
    ms = a * 100 + b * 10 + c;
  }
  return ((daysFromCivil(y, m, d) * 24 + hh) * 60 + mm) * 60000 + ss * 1000 + ms;
}

/** The canonical string of a time isoMs read: with milliseconds (24 characters) or without (20). */
export function isoText(ms: number, withMs: boolean): string {
  const s = new Date(ms).toISOString();
  return withMs ? s : `${s.slice(0, 19)}Z`;
}
