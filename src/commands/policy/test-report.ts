// The reports of `policy test`: JSON records, JUnit XML and TAP 13 as text (the terminal view is in
// test.ts, through the output layer). Pure: strings in, strings out.
import type { CaseResult, CaseRun, RuleHits } from '../../policy/index.js';

export interface Coverage {
  rules: RuleHits[];
  /** Rules no case matched. */
  unmatched: { policy: string; rule: string }[];
  matched: number;
  total: number;
  /** Matched rules in percent (100 when there is no rule). */
  percent: number;
}

export function coverageOf(run: CaseRun): Coverage {
  const total = run.coverage.length;
  const matched = run.coverage.filter((r) => r.hits > 0).length;
  return {
    rules: run.coverage,
    unmatched: run.coverage.filter((r) => r.hits === 0).map(({ policy, rule }) => ({ policy, rule })),
    matched,
    total,
    percent: total === 0 ? 100 : Math.floor((matched * 10000) / total) / 100,
  };
}

export function ruleText(r: { policy: string; rule: string }): string {
  return `rule "${r.rule}" of policy "${r.policy}"`;
}

/** `got allow by rule "x" of policy "y"`, `got deny (no rule matched: denied by default)`. */
export function gotText(r: CaseResult): string {
  if (r.got === 'undecided') return `could not be decided: ${r.error ?? r.reason}`;
  const by = r.rules.length > 0 ? ` by ${r.rules.map(ruleText).join(', ')}` : ` (${r.reason})`;
  return `got ${r.got}${by}`;
}

/** Why a case failed, in one line. */
export function failureText(r: CaseResult): string {
  return `expected ${r.case.expect}, ${gotText(r)}`;
}

export function where(r: CaseResult): string {
  return r.case.line === undefined ? r.case.file : `${r.case.file}:${r.case.line}`;
}

export function caseJson(r: CaseResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: r.case.name,
    request: r.case.request,
    expect: r.case.expect,
    got: r.got,
    pass: r.pass,
    rule: r.rules[0] ?? null,
    rules: r.rules,
    reason: r.reason,
    file: r.case.file,
  };
  if (r.case.line !== undefined) out.line = r.case.line;
  if (r.case.team !== undefined) out.team = r.case.team;
  if (r.error !== undefined) out.error = r.error;
  return out;
}

// XML 1.0 allows tab, newline and carriage return among the C0 controls, nothing else: the rest
// (and DEL, lone surrogates) are written as visible escapes before the markup is escaped.
const XML_BAD =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlText(s: string): string {
  return s
    .replace(XML_BAD, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** One testsuite, one testcase per case; `<failure>` for an unmet expectation, `<error>` for a case not decided. */
export function junit(run: CaseRun, seconds: number, coverage?: Coverage): string {
  const errors = run.undecided;
  const failures = run.failed - errors;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hubctl policy test" tests="${run.results.length}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(3)}">`,
    `  <testsuite name="hubctl policy test" tests="${run.results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${seconds.toFixed(3)}">`,
  ];
  if (coverage) {
    lines.push('    <properties>');
    lines.push(`      <property name="coverage.percent" value="${coverage.percent}"/>`);
    lines.push(`      <property name="coverage.matched" value="${coverage.matched}"/>`);
    lines.push(`      <property name="coverage.total" value="${coverage.total}"/>`);
    lines.push('    </properties>');
  }
  for (const r of run.results) {
    const head = `    <testcase name="${xmlText(r.case.name)}" classname="${xmlText(r.case.file)}"${r.case.line === undefined ? '' : ` line="${r.case.line}"`} time="0">`;
    if (r.pass) {
      lines.push(`${head.slice(0, -1)}/>`);
      continue;
    }
    lines.push(head);
    const tag = r.got === 'undecided' && r.case.expect !== 'undecided' ? 'error' : 'failure';
    const message = failureText(r);
    const body = `${where(r)}: ${r.case.request}\n${message}`;
    lines.push(
      `      <${tag} message="${xmlText(message)}" type="${tag === 'error' ? 'undecided' : 'mismatch'}">${xmlText(body)}</${tag}>`,
    );
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** A YAML scalar that any YAML reader takes back as the same string (JSON's quoting is YAML). */
function yamlScalar(s: string): string {
  return JSON.stringify(s);
}

/** A TAP description: one line, no `#` (it would start a directive). */
function tapDescription(s: string): string {
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/#/g, '\\#');
}

/** TAP version 13: the plan, one `ok`/`not ok` line per case, a YAML block for each failure. */
export function tap(run: CaseRun, coverage?: Coverage): string {
  const lines = ['TAP version 13', `1..${run.results.length}`];
  run.results.forEach((r, i) => {
    lines.push(`${r.pass ? 'ok' : 'not ok'} ${i + 1} - ${tapDescription(r.case.name)}`);
    if (r.pass) return;
    lines.push('  ---');
    lines.push(`  message: ${yamlScalar(failureText(r))}`);
    lines.push(`  severity: ${r.got === 'undecided' ? 'error' : 'fail'}`);
    lines.push(`  file: ${yamlScalar(r.case.file)}`);
    if (r.case.line !== undefined) lines.push(`  line: ${r.case.line}`);
    lines.push(`  request: ${yamlScalar(r.case.request)}`);
    lines.push(`  expected: ${yamlScalar(r.case.expect)}`);
    lines.push(`  got: ${yamlScalar(r.got)}`);
    if (r.rules.length > 0) lines.push(`  rule: ${yamlScalar(ruleText(r.rules[0]!))}`);
    lines.push('  ...');
  });
  lines.push(`# ${run.passed} passed, ${run.failed} failed`);
  if (coverage) {
    lines.push(`# coverage: ${coverage.matched} of ${coverage.total} rules matched (${coverage.percent}%)`);
    for (const u of coverage.unmatched) lines.push(`# no case matched ${tapDescription(ruleText(u))}`);
  }
  return `${lines.join('\n')}\n`;
}
