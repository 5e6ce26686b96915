// Every manifest and dump is read by a fast reader (JSON.parse for JSON, js-yaml's events for YAML);
// the precise reader (the `yaml` package) reads only what they refuse. Where a fast reader answers,
// it must answer as the precise reader would: the same values and lines.
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { InputError } from '../../../src/runtime/errors.ts'
import { parseBlockYaml } from '../../../src/read/block-yaml.ts'
import { parseDumpYaml } from '../../../src/read/dump-yaml.ts'
import { jsonStart, parseJson } from '../../../src/read/fast-json.ts'
import { parseYaml } from '../../../src/read/fast-yaml.ts'
import type { ParsedDocument } from '../../../src/read/parsed-document.ts'
import { parseManifestText } from '../../../src/read/manifests.ts'
import { parsePrecisely } from '../../../src/read/precise-yaml.ts'

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

// What kubectl and YAML libraries write, which the block reader reads itself, and look-alikes it
// must leave to the other readers or read exactly as the precise reader does.
const BLOCK_CASES = [
  'apiVersion: v1\nkind: List\nitems:\n- metadata:\n    name: a\n    labels: {}\n  spec:\n    ports:\n    - port: 80\n- kind: B\nmetadata:\n  resourceVersion: ""',
  'items:\n  - a: 1\n    b: [ ]\n  -\n    c: 2\n  - - x\nz: null',
  's: |\n  one\n\n  two\n\nt: |-\n    kept  \n    text\nu: |\nv: x',
  's: |\n\n  leading\nt: |2\n   x',
  'a: "q \\"x\\" \\u00e9 \\t"\nb: \'it\'\'s\'\nc: "\\x41"\nd: "a # b"\ne: \'f: g\'',
  'a: x # comment\nb: y',
  '# comment\na: 1\n  # indented\nb:\n# between\n  c: 2',
  'a: -5\nb: -x\nc: - x\nd: 0\ne: 007\nf: 1.5\ng: 12345678901234567890\nh: +1\ni: -0\nj: 0x1F\nk: .inf\nl: 1e3',
  'a: 2024-01-01T00:00:00Z\nb: 98afca2a-ecda-47ff\nc: 1_000\nd: http://x:80/y\ne: a:b\nf: ~\ng: True\nh: FALSE',
  'a:\n  b: 1\n   c: 2',
  'a: 1\n  b: 2',
  'a: multi\n  line',
  'a: long message\n  folded over\n\n\n  lines   \n  -x 1.5\nb:\n- item\n  goes on\n-   c: more\n      text\n    d: 1',
  'a: x\n  y: z',
  'a: x\n  # c\n  y',
  'a: x\n  - y\n- z',
  "a: x\n  'y'",
  "a: 'one\n  two  \n\n   three '\nb: 'x''\n  ''y'\nc:\n- 'p: q\n  #r'\n- '\n  s\n  '",
  "a: 'one\ntwo'",
  "a: 'open\n\n",
  "a: 'x'\n  y",
  "- 'x\n' y",
  'a:\n  scalar below',
  'a: 1\na: 2',
  '__proto__: {}\nb: 1',
  '1: a',
  'a b: 1\nc-d.e/f: 2\n"g": 3',
  '- a\n- b: 1\n  c: 2\n-   d: 3\n- "e"',
  'a: &x 1\nb: *x',
  'a: !tag x',
  'a: {x: 1}',
  'a: 1\n---\nb: 2',
  'a: >\n  folded',
  'a: b\r\nc: d',
  'a:\tb',
  '  a: 1\n  b:\n  - 2'
]

// both subset readers: the dump reader (dump-yaml.ts) and the line reader (block-yaml.ts)
describe.each([
  ['dump', parseDumpYaml],
  ['line', parseBlockYaml]
])('the %s YAML reader', (_, parseBlockYaml) => {
  it.each([...BLOCK_CASES, ...YAML_CASES])(
    'reads %j as the precise reader does, or leaves it',
    (text) => {
      const block = parseBlockYaml(text)
      if (block === undefined) return
      expect(block).toEqual(parsePrecisely(text, 'f.yaml'))
    }
  )

  it('reads what a YAML library writes, long plain and quoted strings folded over lines', () => {
    const words = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => ['Backend', 'dns', 'is', 'not', 'there', 'x-1', '3.5', 'so:', '"x"'][i % 9]
      )
    const text = stringify({
      items: Array.from({ length: 20 }, (_, i) => ({
        metadata: { name: `r-${i}`, annotations: { note: words(i * 3).join(' ') } },
        status: { message: words(i * 5).join(' '), lines: words(i).join('\n') }
      }))
    })
    // continuation lines: of a plain scalar, and of a single-quoted one
    expect(text.split('\n').some((l) => /^ +[^ :'-][^:']*$/.test(l))).toBe(true)
    expect(text).toMatch(/: '[^'\n]*\n[^']*'/)
    const block = parseBlockYaml(text)
    expect(block).toBeDefined()
    expect(block).toEqual(parsePrecisely(text, 'f.yaml'))
  })

  it('reads the YAML kubectl writes itself', () => {
    expect(parseBlockYaml(BLOCK_CASES[0]!)).toBeDefined()
    expect(parseBlockYaml(BLOCK_CASES[2]!)).toBeDefined()
    expect(parseBlockYaml(BLOCK_CASES[4]!.split('\nc:')[0]!)).toBeDefined()
    expect(parseBlockYaml(BLOCK_CASES.find((c) => c.includes('folded over'))!)).toBeDefined()
  })
})

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
        '{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": \n',
        'svc.json'
      )
    ).rejects.toThrow(/^svc\.json document 1 \(line \d+, column \d+\): invalid YAML/)
  })
})
