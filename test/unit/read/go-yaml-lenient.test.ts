// What go-yaml v2 (kubectl's YAML reader) reads and YAML 1.2's grammar refuses: route-gate reads
// each such text as kubectl does, where it used to refuse it with exit 2. Every expected value is
// what kubectl v1.35's decoder gives for the text (test/oracle/kubectl-yaml), and every refusal one
// that decoder refuses too.
import { describe, expect, it } from 'vitest'
import { parseDocuments, parseManifestText } from '../../../src/read/manifests.ts'

const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'

async function specOf(body: string): Promise<unknown> {
  const [doc] = await parseManifestText(`${head}${body}`, 'f.yaml')
  return (doc?.object as { spec?: unknown }).spec
}

async function documents(text: string): Promise<unknown[]> {
  return (await parseDocuments(text, 'f.yaml')).map((d) => d.value)
}

describe('a ":" that a flow indicator follows, inside [ ] or { }', () => {
  it('is part of the scalar, as go-yaml v2 scans it', async () => {
    await expect(
      specOf('spec:\n  ips: [2001:db8::]\n  list: [a:, b, c :]\n  map: {k:, m: 1}\n')
    ).resolves.toEqual({ ips: ['2001:db8::'], list: ['a:', 'b', 'c :'], map: { 'k:': null, m: 1 } })
  })

  it('a pair written in full stays a pair', async () => {
    await expect(specOf('spec: [{k:}, k: 1, "q":]\n')).resolves.toEqual([
      { 'k:': null },
      { k: 1 },
      { q: null }
    ])
  })

  it('is refused where "[" or "{" follows it, as kubectl refuses it', async () => {
    await expect(specOf('spec: {a: [x:{]}\n')).rejects.toThrow(/invalid YAML/)
  })
})

describe('a quoted scalar whose later lines are not indented', () => {
  it('reads folded, whatever their indentation', async () => {
    await expect(
      specOf('spec:\n  a: "two\nlines"\n  b:\n  - \'it\'\'s\n on\'\n  c: ["x\n\ty"]\n  d: 1\n')
    ).resolves.toEqual({ a: 'two lines', b: ["it's on"], c: ['x y'], d: 1 })
  })

  it('keeps an empty line as a line break, and a "#" as text', async () => {
    await expect(specOf('spec:\n  a: "x\n\n#y"\n')).resolves.toEqual({ a: 'x\n#y' })
  })

  it('is refused where a document marker starts a line of it, as kubectl refuses it', async () => {
    await expect(specOf('spec:\n  a: "x\n... y"\n')).rejects.toThrow(/invalid YAML/)
  })
})

describe("a block scalar's header in the column of its key", () => {
  it('reads the block scalar, its content counted from the key', async () => {
    await expect(
      specOf(
        'spec:\n  a:\n  # c\n  |  # c\n    t\n  b: # c\n  |2\n     u\n  c:\n  - d:\n    >-\n     v\n'
      )
    ).resolves.toEqual({ a: 't\n', b: ' u\n', c: [{ d: 'v' }] })
  })

  it('is refused out of that column or after a value, as kubectl refuses it', async () => {
    await expect(specOf('spec:\n  a:\n|\n    t\n')).rejects.toThrow(/invalid YAML/)
    await expect(specOf('spec:\n  a: 1\n  |\n    t\n')).rejects.toThrow(/invalid YAML/)
  })
})

describe('a "#" right after a token', () => {
  it('starts a comment after "]", "}", ",", a closing quote or a block header', async () => {
    await expect(
      specOf('spec:\n  a: {z: 1}# c\n  b: [1,# c\n    2]#\n  c: "x"# c\n  d: >-# c\n    t\n')
    ).resolves.toEqual({ a: { z: 1 }, b: [1, 2], c: 'x', d: 't' })
  })

  it('inside a plain scalar is text', async () => {
    await expect(specOf('spec: {a: b#c}\n')).resolves.toEqual({ a: 'b#c' })
  })
})

describe('text after the root node of a document', () => {
  it('after "..." on its line is not read', async () => {
    await expect(documents('a: 1\n... b: 2\n')).resolves.toEqual([{ a: 1 }])
    await expect(documents('a: 1\n...    - matches:\n')).resolves.toEqual([{ a: 1 }])
  })

  it('on a line indented less than the root is not read', async () => {
    await expect(documents('    set: 1\n    add: 2\n  backendRefs:\n  - x\n')).resolves.toEqual([
      { set: 1, add: 2 }
    ])
  })

  it('after a root scalar or flow collection is not read', async () => {
    await expect(documents('off# See\n# c\ntimeout: 1200s\n')).resolves.toEqual(['off# See'])
    await expect(documents('"a" x\n')).resolves.toEqual(['a'])
    await expect(documents('[a]\nb: 1\n')).resolves.toEqual([['a']])
  })

  it('that go-yaml v2 refuses as the token after the root is refused', async () => {
    await expect(documents('"a" - x\n')).rejects.toThrow(/invalid YAML/)
    await expect(documents('[a] ? b\n')).rejects.toThrow(/invalid YAML/)
    await expect(documents('"a"\n@x\n')).rejects.toThrow(/invalid YAML/)
  })

  it("at the root block collection's own indentation is refused, as kubectl refuses it", async () => {
    await expect(documents('a: 1\n"b" c\n')).rejects.toThrow(/invalid YAML/)
  })

  it('a root block scalar whose content starts its lines is empty', async () => {
    await expect(documents('>-# c\napiVersion: v1\nkind: Namespace\n')).resolves.toEqual([''])
  })
})

describe('an explicit "?" key', () => {
  it('reads as its key, with or without a ":" value', async () => {
    await expect(
      specOf('spec:\n  ? a\n  ? b\n  : 1\n  ? c\n    d\n  : [2]\n  ? 010\n  :\n')
    ).resolves.toEqual({ a: null, b: 1, 'c d': [2], '8': null })
  })

  it('is refused where kubectl refuses it', async () => {
    await expect(specOf('spec:\n  ? a\n    : b\n')).rejects.toThrow(
      /the ":" of an explicit "\?" key is not in the column of its "\?"/
    )
    await expect(specOf('spec:\n  ? a # c\n    b: 1\n')).rejects.toThrow(
      /an explicit "\?" key goes on after a comment/
    )
    await expect(specOf('spec:\n  ? [a]\n  : c\n')).rejects.toThrow(/a key of type object/)
  })
})

describe('what mending may cost', () => {
  it('mends every "#" of a text in one pass', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `  k${i}: [${i}]# c`)
    const spec = (await specOf(`spec:\n${lines.join('\n')}\n`)) as Record<string, unknown>
    expect(Object.keys(spec)).toHaveLength(3000)
    expect(spec.k2999).toEqual([2999])
  })

  it('parses a text again at most 16 times: past that, it refuses (exit 2), never misreads', async () => {
    const quotes = (n: number) =>
      Array.from({ length: n }, (_, i) => `  k${i}: "two\nlines"`).join('\n')
    await expect(specOf(`spec:\n${quotes(16)}\n`)).resolves.toHaveProperty('k15', 'two lines')
    await expect(specOf(`spec:\n${quotes(17)}\n`)).rejects.toThrow(/Missing closing "quote/)
  })
})
