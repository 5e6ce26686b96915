// Every manifest and dump is read by a fast reader (JSON.parse for JSON, js-yaml's events for YAML);
// the precise reader (the `yaml` package) reads only what they refuse. Where a fast reader answers,
// it must answer as the precise reader would: the same values and lines.
import { describe, expect, it } from 'vitest'
import { InputError } from '../../src/errors.ts'
import { jsonStart, parseJson } from '../../src/fast-json.ts'
import { parseYaml, type ParsedDocument } from '../../src/fast-yaml.ts'
import { parseManifestText } from '../../src/manifests.ts'
import { parsePrecisely } from '../../src/precise-yaml.ts'

const YAML_CASES = [
  't: 2024-01-01T00:00:00Z\nu: 2024-01-01',
  'a: yes\nb: on\nc: ~\nd: 0o17\ne: 017\nf: 0x1F\ng: .inf\nh: 1_000\ni: +12\nj: -.5\nk: .NaN',
  'a: True\nb: FALSE\nc: Null\nd: NULL\ne: null\nf:\ng: ""',
  'a: &x {b: 1}\nc: {<<: *x, d: 2}',
  'a: !!binary aGVsbG8=',
  'a: !!str 12\nb: !!int "7"',
  'a: 1\na: 2',
  "k: \"\\u00e9\\x41\\t\"\nl: 'it''s'",
  '? [a, b]\n: 1',
  'a: !foo bar',
  '%YAML 1.1\n---\na: yes',
  'v: 1.0\nw: 1e3\nx: 12345678901234567890\ny: 0.1e-2\nz: 1.',
  'a: b\n---\n# c\n---\nx: 1\n...\n',
  's: |\n  one\n  two\n\nt: >-\n  folded\n  text\n\n  para\nu: |+\n  keep\n\n',
  'plain: multi\n  line\n  scalar\nq: "dq\n  folded"',
  '1: a\n2.5: b\ntrue: c\nnull: d',
  'list:\n- a\n-  - b\n   - c\n- {x: 1, y: [2, 3]}',
  'kind: [unclosed\n',
  'a:\n\tb: 1',
  '- a\n- b',
  'just a scalar',
  '"__proto__": {x: 1}\nb: 2',
  '~: a\nb: {null: c}',
  'a:\n  Null: b',
  '"null": a\n\'~\': b\nFalse: c',
  '%TAG !k! tag:yaml.org,2002:\n---\na: !k!str 1',
  'apiVersion: v1\nkind: List\nitems:\n- a: 1\n- [x]\n-   b: 2\nmore:\n  items:\n  - c: 3'
]

describe('the fast YAML reader', () => {
  it.each(YAML_CASES)('reads %j as the precise reader does, or leaves it to it', (text) => {
    const fast = parseYaml(text)
    const precise = outcome(() => parsePrecisely(text, 'f.yaml'))
    // what the precise reader refuses the fast one refuses too, so the refusal is worded precisely
    expect(precise.error === undefined || fast === undefined, 'refused precisely only').toBe(true)
    expect(fast === undefined ? precise.value : nullLines(fast)).toEqual(nullLines(precise.value))
  })
})

/** The value or the InputError of `read`. */
function outcome(read: () => ParsedDocument[]): { value?: ParsedDocument[]; error?: InputError } {
  try {
    return { value: read() }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { error }
  }
}

/** An empty document is skipped, so its line says nothing. */
const nullLines = (docs: ParsedDocument[] | undefined) =>
  docs?.map((d) => (d.value === null ? { ...d, line: 0 } : d))

describe('the JSON reader', () => {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a "quoted" \\ name', labels: {} } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'b', items: [{ x: [] }] } }
    ],
    metadata: { resourceVersion: '' }
  }

  it('reads JSON after whitespace and a # header, with the lines the precise reader gives', () => {
    for (const text of [
      JSON.stringify(list, null, 2),
      `# taken by route-gate dump\n\n  ${JSON.stringify(list, null, 4)}\n`,
      JSON.stringify(list),
      JSON.stringify([1, 2]),
      '{"kind": "List", "items": [1, "two", [3], {"x": {"items": [4]}}, null], "more": {"items": [{}]}}'
    ]) {
      const fast = parseJson(text)
      expect(fast, text).toBeDefined()
      expect(fast).toEqual(parsePrecisely(text, 'f.json'))
    }
  })

  it('is only for texts that start as JSON', () => {
    expect(jsonStart('apiVersion: v1\n')).toBeUndefined()
    expect(jsonStart('# only a comment')).toBeUndefined()
    expect(jsonStart('\n# c\n  {"a": 1}')).toBe(7)
    expect(jsonStart(' [1]')).toBe(1)
  })

  it.each([
    ['a repeated key', '{"apiVersion": "v1", "kind": "Service", "kind": "Pod"}'],
    ['a repeated key written another way', '{"a": {"k": 1, "\\u006b": 2}}'],
    ['a __proto__ key', '{"metadata": {"__proto__": {"name": "x"}}}'],
    ['a __proto__ key written another way', '{"\\u005f_proto__": {"name": "x"}}'],
    [
      'a repeated key deep in a list item',
      '{"kind": "List", "items": [{"a": [{"b": 1, "b": 1}]}]}'
    ],
    ['a syntax error', '{\n  "apiVersion": "v1",\n  "kind": "Service",\n}'],
    ['a flow mapping that is YAML, not JSON', '{apiVersion: v1, kind: Service}'],
    ['two values', '{"a": 1}\n{"b": 2}']
  ])('leaves %s to the YAML readers', (_, text) => {
    expect(parseJson(text)).toBeUndefined()
  })

  it('keeps the precise messages, with file and line, for what it refuses', async () => {
    await expect(
      parseManifestText(
        '{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "kind": "Pod"\n}',
        'svc.json'
      )
    ).rejects.toThrow(
      /^svc\.json document 1 \(line 4, column 3\): invalid YAML: Map keys must be unique/
    )
    await expect(
      parseManifestText(
        '{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": \n',
        'svc.json'
      )
    ).rejects.toThrow(/^svc\.json document 1 \(line \d+, column \d+\): invalid YAML/)
  })
})
