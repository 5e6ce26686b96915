// Manifests read as kubectl reads them (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1), whichever of the
// readers takes the text: the values below are what kubectl v1.35 sends for each text (checked
// against the real decoder by test/integration/kubectl-yaml.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseDocuments, parseManifestText } from '../../../src/read/manifests.ts'
import { readsAlike } from '../../../src/read/block-yaml.ts'
import { resolveKubernetes } from '../../../src/read/yaml11.ts'

const head = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'

async function specOf(body: string): Promise<unknown> {
  const [doc] = await parseManifestText(`${head}${body}`, 'f.yaml')
  return (doc?.object as { spec?: unknown }).spec
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('YAML 1.1 scalars, as Kubernetes reads them', () => {
  it.each([
    ['010', 8],
    ['-010', -8],
    ['0X1F', 31],
    ['0x1f', 31],
    ['0o17', 15],
    ['0b11', 3],
    ['1_000', 1000],
    ['08', 8],
    ['+12', 12],
    ['1e3', 1000],
    ['.5', 0.5],
    ['yes', true],
    ['On', true],
    ['y', true],
    ['N', false],
    ['off', false],
    ['~', null],
    ['12:30', '12:30'],
    ['2024-01-01', '2024-01-01'],
    ['1e400', '1e400'],
    ['web', 'web'],
    ['0fa3e8b6-05fb-45d8-b58d-a0e1d72d5b61', '0fa3e8b6-05fb-45d8-b58d-a0e1d72d5b61'],
    ['0123e456-1111-2222-3333-444455556666', '0123e456-1111-2222-3333-444455556666']
  ])('%s reads as %j', (text, value) => {
    expect(resolveKubernetes(text)).toEqual(value)
  })

  it('the fast readers leave each such scalar to the precise one, and it reads it so', async () => {
    expect(readsAlike('010')).toBe(false)
    expect(readsAlike('yes')).toBe(false)
    expect(readsAlike('web')).toBe(true)
    expect(readsAlike('8080')).toBe(true)
    // a uid with a leading zero is text to both schemas: one in 16 objects has one, and declining
    // them sent every dump of more than a few objects to the precise reader, at six times the cost
    expect(readsAlike('0fa3e8b6-05fb-45d8-b58d-a0e1d72d5b61')).toBe(true)
    expect(readsAlike('0123e456-1111-2222-3333-444455556666')).toBe(true)
    for (const number of ['0x1F', '0o17', '0B1', '0_1', '09', '0e5', '012.5', '-012'])
      expect(readsAlike(number), number).toBe(false)
    await expect(specOf('spec:\n  port: 010\n  on: yes\n  n: [0b1, 1_0]\n')).resolves.toEqual({
      port: 8,
      true: true,
      false: [1, 10]
    })
    // the same in a dump-shaped and in a flow-shaped text
    await expect(specOf('spec: {port: 010, enabled: off}\n')).resolves.toEqual({
      port: 8,
      enabled: false
    })
  })

  it('merge keys are merged; explicit keys after them win', async () => {
    const body = 'base: &b {port: 80, name: web}\nspec:\n  <<: *b\n  port: 8080\n'
    await expect(specOf(body)).resolves.toEqual({ port: 8080, name: 'web' })
    const list = 'x: &x {a: 1}\ny: &y {a: 2, b: 2}\nspec:\n  <<: [*x, *y]\n'
    await expect(specOf(list)).resolves.toEqual({ a: 1, b: 2 })
  })

  it('duplicate keys: the last wins, with a warning at file and line', async () => {
    const warned: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      warned.push(String(chunk))
      return true
    })
    await expect(specOf('spec:\n  port: 80\n  port: 81\n')).resolves.toEqual({ port: 81 })
    expect(warned.join('')).toMatch(/f\.yaml document 1 \(line 6\): key "port" is given twice/)
  })

  it('a document after "..." is not read; text after "---" on its line is refused', async () => {
    const docs = await parseManifestText(`${head}...\n${head.replace('a}', 'b}')}`, 'f.yaml')
    expect(docs.map((d) => d.object.metadata.name)).toEqual(['a'])
    await expect(parseManifestText(`${head}--- x\n${head}`, 'f.yaml')).rejects.toThrow(
      /^f\.yaml \(line 4\): invalid YAML: only a comment may follow "---"/
    )
    await expect(parseManifestText(`${head}--- # fine\n${head}`, 'f.yaml')).resolves.toHaveLength(2)
  })

  it('refuses what kubectl refuses: "\\/", .inf, a null key, a self-containing alias', async () => {
    await expect(specOf('spec: {a: "x\\/y"}\n')).rejects.toThrow(/unknown escape "\\\/"/)
    await expect(specOf('spec: {a: .inf}\n')).rejects.toThrow(/\.inf is not a number JSON can hold/)
    await expect(specOf('spec: {~: a}\n')).rejects.toThrow(/a key of type null/)
    await expect(specOf('spec: &s {a: *s}\n')).rejects.toThrow(/contains itself/)
  })

  it('refuses, whichever reader takes the text, what go-yaml v2 scans otherwise', async () => {
    // a "?" ends a plain scalar inside [ ] or { }, and a ":" that "[" follows does not end a key
    await expect(specOf('spec: [a?b]\n')).rejects.toThrow(/a "\?" ends a plain scalar/)
    await expect(specOf('spec: {a: b?}\n')).rejects.toThrow(/a "\?" ends a plain scalar/)
    await expect(specOf('spec: [x:[1]]\n')).rejects.toThrow(/a ":" that "\[" or "\{" follows/)
    // an anchor's name is letters, digits, "_" and "-"
    await expect(specOf('spec: {a: &a.b 1}\n')).rejects.toThrow(/the anchor name "a\.b"/)
    await expect(specOf('spec: &ok-1_x {a: 1}\nb: *ok-1_x\n')).resolves.toEqual({ a: 1 })
    // outside [ ] and { }, or quoted, a "?" is text
    await expect(specOf('spec: {a: "[x?]"}\nb: x?\n')).resolves.toEqual({ a: '[x?]' })
  })

  it('a root block scalar whose content starts its lines is empty, as go-yaml v2 reads it', async () => {
    const [doc] = await parseDocuments('|\nfoo\n', 'f.yaml')
    expect(doc?.value).toBe('')
  })

  it('an explicit tag types a quoted scalar too', async () => {
    await expect(specOf('spec: {a: !!int "7", b: !!str 010}\n')).resolves.toEqual({
      a: 7,
      b: '010'
    })
    await expect(specOf('spec: {a: !!int "x"}\n')).rejects.toThrow(/cannot read "x" as !!int/)
  })
})

describe("byte order marks and document markers, as kubectl's YAMLReader and go-yaml v2 read them", () => {
  const BOM = '\ufeff'
  const values = async (text: string): Promise<unknown[]> =>
    (await parseDocuments(text, 'f.yaml')).map((doc) => doc.value).filter((v) => v !== null)

  it.each([
    ['one before a later document', `a: 1\n---\n${BOM}b: 2\n`, [{ a: 1 }, { b: 2 }]],
    ['two at the start', `${BOM}${BOM}a: 1\n`, [{ a: 1 }]],
    ['two before a later document', `a: 1\n---\n${BOM}${BOM}b: 2\n`, [{ a: 1 }, { b: 2 }]],
    ['inside a line: part of the key', `a: 1\n${BOM}b: 2\n`, [{ a: 1, [`${BOM}b`]: 2 }]],
    ['a separator kept before "..."', '---\n...\n', []],
    ['"---#" after a blank line: a separator', '\n---#c\na: 1\n', [{ a: 1 }]],
    ['"--- #" opening the file', '--- #c\na: 1\n', [{ a: 1 }]]
  ])('%s', async (_name, text, expected) => {
    expect(await values(text)).toEqual(expected)
  })

  it.each([
    ['three at the start', `${BOM}${BOM}${BOM}a: 1\n`, 'three byte order marks open a document'],
    ['"---#" opening the file', '---#c\na: 1\n', '"---#" opening a document is text for kubectl'],
    ['a lone "..."', '# c\n...\n', 'a document that opens with "...", which kubectl refuses'],
    [
      '"..." after a separator that ended a document',
      'a: 1\n---\n...\n',
      'a document that opens with "..."'
    ]
  ])('refused where kubectl refuses: %s', async (_name, text, problem) => {
    await expect(parseDocuments(text, 'f.yaml')).rejects.toThrow(problem)
  })
})
