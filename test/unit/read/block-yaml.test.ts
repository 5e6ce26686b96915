// The line reader (src/read/block-yaml.ts) answers only where it answers as the precise reader does: the
// same values, document lines and item lines. Everything else it declines, and js-yaml reads it.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { parseBlockYaml } from '../../../src/read/block-yaml.ts'
import { parseDumpYaml } from '../../../src/read/dump-yaml.ts'
import type { ParsedDocument } from '../../../src/read/parsed-document.ts'
import { parsePrecisely } from '../../../src/read/precise-yaml.ts'
import { REPO } from '../../helpers/action.ts'

/** Texts the reader must read, as kubectl, helm template and route-gate dump print them. */
const READ = [
  'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: shop\n    labels:\n      gateway-access: edge\n- apiVersion: v1\n  kind: Service\n  spec:\n    ports:\n    - port: 8080\n      protocol: TCP\n',
  '# Source: chart/templates/route.yaml\n---\n# a comment\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: "web"\n  annotations:\n    note: \'it\'\'s\'\nspec:\n  hostnames: ["a.example.com", b.example.com]\n  parentRefs:\n    - {name: edge, namespace: infra, sectionName: http}\n---\n---\nkind: Service\n',
  'status:\n  conditions:\n  - type: Accepted\n    status: "True"\n    message: route is accepted  # trailing comment\n    observedGeneration: 2\n    flag: false\n    none: null\n    empty:\n    tilde: ~\n    obj: {}\n    list: []\n',
  'metadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {"apiVersion":"v1",\n        "kind":"Service"}\n\n    strip: |-\n      one\n      # not a comment\n\n      two\n    next: x\n',
  'items:\n-\n  name: a\n- name: b\n  nested:\n  - x\n  - "y\\u00e9\\n"\n',
  'root:\n  deep:\n    deeper: [1, -2, 0, {a: [b, "c, d"]}]\n  url: http://example.com:8080/path?q=a#frag\n  image: nginx:1.27\n',
  '- a\n- b: c\n  d: e\n',
  'a: 1\r\nb: two\r\n',
  'clock: 12:30\nport: 8\n',
  'list: [1.5, 10.0.0.1, 2024-01-01, 1e3, +1, .5, -x]',
  'status:\n  message: \'service "shop/checkout-svc" not found: the text goes on past eighty\n    columns and kubectl folds it\'\n  reason: x\n',
  'message: a long plain message that goes on past eighty columns of text and so\n  it is folded\n\n  with a blank line\n# a comment\nnext: 1\n',
  "items:\n  - name: a\n    # a comment under a value\n    note: 'a single-quoted\n\n      # not a comment\n      text'\n"
]

/** Texts it must decline: each holds something it leaves to js-yaml and the precise reader. */
const DECLINED = [
  // YAML 1.1 as Kubernetes reads it (the precise reader's): 8, true, 1000, "true": …
  'port: 08\n',
  'n: [0123, 1_000]',
  'on: yes\n',
  'a: "x\\/y"\n',
  'a: &x 1\nb: *x',
  'a: !!str 1',
  'a: 0x1F',
  'a: -0',
  'a: .inf',
  'a: >\n  folded\n',
  'a: |+\n  keep\n',
  'a: "dq\n  folded"',
  "a: 'x'\n  b",
  'a: b\n  c: d',
  // a comment ends a plain scalar: the more-indented line is an error, never "x y"
  'a: x # c\n  y',
  'spec:\n  backendRefs:\n  - name: web # the storefront\n    service\n    port: 80\n',
  'clusters:\n- cluster:\n    server: https://h:6443 # staging\n      cluster\n',
  'a: b\n  - c',
  'a: [1,\n  2]\n',
  'a: 1e400',
  'a: 0x1F\n',
  'a: 0o17',
  'a: "\\x41"',
  '? complex\n: key',
  '1: a',
  'null: a',
  '"": a',
  '__proto__: a',
  '<<: {a: 1}',
  'a: 1\na: 2',
  'a: {b: 1, b: 2}',
  'a: [1, 2,]',
  'a: [1,\n  2]',
  'a:\n\tb: 1',
  'a: b: c',
  '%YAML 1.2\n---\na: 1',
  'a: 1\n...\n',
  'just a scalar',
  '',
  '# only a comment\n',
  'a: "\u0001"',
  'a:\u00a0b',
  'a:\n  b: 1\n c: 2',
  'a:\n- x\n- y\n  z:',
  'a:\n- x\n -\tb: 1',
  'k:\tv',
  'k: a:\tb',
  'k\t#: v',
  '- a\n  - b'
]

/** Pieces of YAML syntax that random edits put into a valid text. */
const SYNTAX = [
  ':\t',
  '\t#',
  '-\t',
  ' \t',
  'a:',
  '\n   b:',
  '1e3',
  '0x1',
  '-0',
  '08',
  '12:30',
  '10.0.0.1',
  '2026-01-01',
  'yes',
  'on',
  '010',
  '1_0',
  '0X1F',
  '<<: ',
  '...',
  '"\\/"',
  ':',
  ': ',
  '#',
  ' #',
  '"',
  "'",
  '- ',
  ' ',
  '|',
  '|-',
  '{',
  '}',
  '[',
  ']',
  ',',
  '\n',
  '\n  ',
  '~',
  '0',
  '.',
  'true',
  '\\',
  '\t',
  '&a',
  '*a',
  '!',
  '?',
  '---',
  'x'
]

function precise(text: string): ParsedDocument[] | undefined {
  try {
    return parsePrecisely(text, 'f.yaml')
  } catch {
    return undefined
  }
}

/** An empty document is skipped (kubectl skips it), so whether a reader counts one says nothing. */
const nullLines = (docs: ParsedDocument[] | undefined) => docs?.filter((d) => d.value !== null)

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      return ['node_modules', 'dist', '.git', '.cluster'].includes(entry.name)
        ? []
        : yamlFiles(file)
    }
    return /\.ya?ml$/.test(entry.name) ? [file] : []
  })
}

describe('the line YAML reader', () => {
  it.each(READ)('reads %j as the precise reader does', (text) => {
    const read = parseBlockYaml(text)
    expect(read).toBeDefined()
    expect(nullLines(read)).toEqual(nullLines(precise(text)))
  })

  it.each(DECLINED)('declines %j', (text) => {
    expect(parseBlockYaml(text)).toBeUndefined()
  })

  it('declines a nesting deeper than the stack rather than throwing', () => {
    const deep = Array.from({ length: 20000 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')
    expect(parseBlockYaml(deep)).toBeUndefined()
  })

  // the shipped dump as kubectl prints it, and as route-gate dump (the yaml package) prints it:
  // timestamps unquoted, sequences indented, long messages folded at 80 columns
  const shipped = readFileSync(path.join(REPO, 'examples/cluster-dump.yaml'), 'utf8')
  const dumped = stringify(parse(shipped))
  const handWritten = readFileSync(path.join(REPO, 'examples/pull-request/routes.yaml'), 'utf8')
  it.each([
    ['kubectl', shipped],
    ['route-gate dump', dumped],
    ['hand-written manifests', handWritten]
  ])(
    'agrees with the precise reader on random edits of the %s dump wherever it answers',
    (_, dump) => {
      expect(parseBlockYaml(dump)).toBeDefined()
      // a fixed seed: the same edits on every run
      let seed = 24
      const random = (n: number): number => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff
        return seed % n
      }
      let answered = 0
      for (let i = 0; i < 400; i++) {
        let text = dump
        for (let edits = 1 + random(4); edits > 0; edits--) {
          const at = random(text.length)
          const piece = random(4) === 0 ? '' : SYNTAX[random(SYNTAX.length)]!
          text = text.slice(0, at) + piece + text.slice(at + random(3))
        }
        const dumpRead = parseDumpYaml(text)
        const read = parseBlockYaml(text)
        const expected = (dumpRead ?? read) ? nullLines(precise(text)) : undefined
        // the dump reader, which comes first, is held to the same
        expect(nullLines(dumpRead) ?? expected, JSON.stringify(text)).toEqual(expected)
        if (read === undefined) continue
        answered++
        expect(nullLines(read), JSON.stringify(text)).toEqual(expected)
      }
      expect(answered).toBeGreaterThan(60)
    }
  )

  it('reads every YAML file of the repository it accepts as the precise reader does', () => {
    const files = yamlFiles(REPO)
    let read = 0
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      const fast = parseBlockYaml(text)
      if (fast === undefined) continue
      read++
      expect(nullLines(fast), path.relative(REPO, file)).toEqual(nullLines(precise(text)))
    }
    // the shipped dump, the examples and the fixtures are the subset it is for
    expect(read).toBeGreaterThan(files.length / 2)
    const dump = readFileSync(path.join(REPO, 'examples/cluster-dump.yaml'), 'utf8')
    expect(parseBlockYaml(dump)).toBeDefined()
  })
})
