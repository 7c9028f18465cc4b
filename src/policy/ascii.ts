// The character codes the engine's hand-written scanners compare against (they read strings with
// charCodeAt and input bytes as numbers, allocating nothing). An enum so that each reads as its
// name here and esbuild inlines it as its number in dist, where these loops are the hot ones.
export enum Ascii {
  Tab = 9,
  LineFeed = 10,
  CarriageReturn = 13,
  /** Codes below it are control characters. */
  Space = 32,
  Bang = 33,
  Quote = 34,
  Hash = 35,
  Percent = 37,
  Hyphen = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  QuestionMark = 63,
  At = 64,
  UpperA = 65,
  UpperF = 70,
  LeftBracket = 91,
  Backslash = 92,
  RightBracket = 93,
  Underscore = 95,
  LowerA = 97,
  LowerF = 102,
  LowerH = 104,
  LowerP = 112,
  LowerS = 115,
  LowerT = 116,
  LowerU = 117,
  LowerX = 120,
  LowerZ = 122,
  LeftBrace = 123,
  RightBrace = 125,
  Tilde = 126,
  /** DEL; codes from it up are not printable ASCII. */
  Delete = 127,
  /** The bit that tells an ASCII letter's lower case from its upper case. */
  CaseBit = 32,
}
