// policy lint on Cedar texts: what each check finds, and what it must leave alone.
import { describe, expect, it } from 'vitest';
import { lintCedar, loadCedar, MCP_SCHEMA_URL } from '../../../src/policy/index.js';

async function codes(text: string, schemaUrl: string | null = MCP_SCHEMA_URL): Promise<string[]> {
  const cedar = await loadCedar();
  return lintCedar(cedar, [
    { name: 'p', source: 'p.cedar', text, firstLine: 1, ...(schemaUrl === null ? {} : { schemaUrl }) },
  ]).map((w) => `${w.line} ${w.code}`);
}

const TOOL = 'action == MCP::Action::"invokeTool"';

describe('lint of Cedar', () => {
  it.each([
    [
      `permit (principal, ${TOOL}, resource) when { context has args && context.args has amount && context.args.amount > 1 };`,
    ],
    [
      `forbid (principal, ${TOOL}, resource) when { context has args && context.args has a && context.args.a has b && context.args.a.b };`,
    ],
    [
      `forbid (principal, ${TOOL}, resource) when { if context has args && context.args has x then context.args.x == 1 else false };`,
    ],
    [
      `forbid (principal, ${TOOL}, resource) when { context has args } when { context.args has x && context.args.x == 1 };`,
    ],
    [`permit (principal, ${TOOL}, resource) when { resource.name like "*search*" };`],
    [
      `permit (principal, action == MCP::Action::"register", resource) when { resource.args.contains("--ro") };`,
    ],
    [`@requireApproval("r")\npermit (principal, ${TOOL}, resource);`],
    [`@task("x")\npermit (principal, ${TOOL}, resource);`],
  ])('finds nothing in %s', async (text) => {
    expect(await codes(text)).toEqual([]);
  });

  it.each([
    [
      `forbid (principal, ${TOOL}, resource) when { context.args.x == 1 || context has args };`,
      ['1 UNGUARDED_ARGS'],
    ],
    [
      `forbid (principal, ${TOOL}, resource) when { context has args && context.args.a.b };`,
      ['1 UNGUARDED_ARGS'],
    ],
    [
      `forbid (principal, ${TOOL}, resource) when { if context has args then context.args.x == 1 else false };`,
      ['1 UNGUARDED_ARGS'],
    ],
    [`@requireapproval("r")\npermit (principal, ${TOOL}, resource);`, ['1 APPROVAL_ANNOTATION']],
    [`@approval("r")\npermit (principal, ${TOOL}, resource);`, ['1 APPROVAL_ANNOTATION']],
    [`@requireApproval("r")\nforbid (principal, ${TOOL}, resource);`, ['1 APPROVAL_ANNOTATION']],
    [`permit (principal, ${TOOL}, resource)\n  when { principal.role == "admin" };`, ['2 PRINCIPAL_CLAUSE']],
    [`@id("x")\npermit (principal, ${TOOL}, resource);`, ['1 CEDAR_ID_ANNOTATION']],
  ])('finds %s', async (text, want) => {
    expect(await codes(text)).toEqual(want);
  });

  it('a permit is shadowed by a forbid of a broader scope with fewer conditions, not by a narrower one', async () => {
    const permit = `permit (principal, ${TOOL}, resource in MCP::Server::"s") when { resource.readOnly };`;
    expect(await codes(`${permit}\nforbid (principal, action, resource);`)).toEqual(['1 SHADOWED_PERMIT']);
    expect(await codes(`${permit}\nforbid (principal, ${TOOL}, resource in MCP::Server::"s");`)).toEqual([
      '1 SHADOWED_PERMIT',
    ]);
    expect(
      await codes(`${permit}\nforbid (principal, ${TOOL}, resource) when { resource.readOnly };`),
    ).toEqual(['1 SHADOWED_PERMIT']);
    // narrower: another server, another condition, or a forbid that never matches (principal)
    expect(await codes(`${permit}\nforbid (principal, ${TOOL}, resource in MCP::Server::"t");`)).toEqual([]);
    expect(
      await codes(`${permit}\nforbid (principal, ${TOOL}, resource) when { resource.destructive };`),
    ).toEqual([]);
    expect(await codes(`${permit}\nforbid (principal in MCP::Team::"x", action, resource);`)).toEqual(
      ['2 PRINCIPAL_CLAUSE', '2 CEDAR_SCHEMA'].slice(0, 1),
    );
  });

  it('schema errors only for the MCP schema URL', async () => {
    const text = `permit (principal, ${TOOL}, resource) when { resource.readonly };`;
    expect(await codes(text)).toEqual(['1 CEDAR_SCHEMA']);
    expect(await codes(text, 'https://example.com/other')).toEqual([]);
    expect(await codes(text, null)).toEqual([]);
  });
});
