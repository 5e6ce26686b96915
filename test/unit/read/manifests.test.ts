import { mkdtemp, mkdir, truncate, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { InputError } from '../../../src/runtime/errors.ts'
import {
  expandManifestPaths,
  loadManifests,
  parseManifestText
} from '../../../src/read/manifests.ts'
import { MAX_FILE_BYTES } from '../../../src/read/files.ts'

const route = (name: string, extra = '') => `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ${name}
  namespace: shop
spec:
  parentRefs:
  - name: edge
${extra}`

const messageOf = async (fn: () => unknown): Promise<string> => {
  try {
    await fn()
  } catch (e) {
    expect(e).toBeInstanceOf(InputError)
    return (e as Error).message
  }
  throw new Error('expected an InputError')
}

describe('parseManifestText', () => {
  it('keeps file, document index and starting line of every document', async () => {
    const text = `# leading comment\n${route('a')}---\n\n${route('b')}`
    const docs = await parseManifestText(text, 'routes.yaml')
    expect(docs.map((d) => [d.file, d.index, d.line, d.object.metadata.name])).toEqual([
      ['routes.yaml', 1, 2, 'a'],
      ['routes.yaml', 2, 12, 'b']
    ])
  })

  it('flattens a List and gives each item its own line', async () => {
    const text = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: shop}
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: web, namespace: shop}
`
    const docs = await parseManifestText(text, 'dump.yaml')
    expect(docs.map((d) => [d.object.kind, d.line])).toEqual([
      ['Service', 4],
      ['HTTPRoute', 7]
    ])
  })

  it('reads JSON', async () => {
    const docs = await parseManifestText(
      JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } }),
      'svc.json'
    )
    expect(docs[0]?.object.kind).toBe('Service')
  })

  it.each([
    ['', 'empty.yaml: the file is empty'],
    ['# only a comment\n---\n', 'empty.yaml: no documents (only comments or separators)'],
    ['kind: [unclosed\n', /^empty\.yaml document 1 \(line \d+, column \d+\): invalid YAML/],
    ['- a\n- b\n', 'empty.yaml document 1: a Kubernetes object must be a mapping, got a list'],
    [
      'apiVersion: v1\nmetadata: {name: x}\n',
      'empty.yaml document 1: field "kind" is missing or not a string'
    ],
    [
      'apiVersion: v1\nkind: Service\n',
      'empty.yaml document 1: field "metadata" is missing or not a mapping'
    ],
    [
      'apiVersion: v1\nkind: Service\nmetadata: {namespace: a}\n',
      'empty.yaml document 1: field "metadata.name" is missing or not a string'
    ],
    [
      route('x') + 'status:\n  parents: oops\n',
      'empty.yaml document 1 (HTTPRoute x): field "status.parents" must be a list'
    ]
  ])('rejects %j', async (text, expected) => {
    const message = await messageOf(() => parseManifestText(text, 'empty.yaml'))
    const exact = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
    expect(message).toMatch(expected instanceof RegExp ? expected : exact(expected))
  })

  it('refuses a YAML alias bomb instead of expanding it', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i)
      const next = String.fromCharCode(97 + i)
      lines.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`)
    }
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${lines.map((l) => '  ' + l).join('\n')}\n`
    const message = await messageOf(() => parseManifestText(text, 'bomb.yaml'))
    expect(message).toMatch(/^bomb\.yaml document 1 \(line \d+, column \d+\): .*alias/i)
  })
})

describe('files', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-manifests-'))
    await mkdir(path.join(dir, 'routes'))
    await writeFile(path.join(dir, 'routes', 'a.yaml'), route('a'))
    await writeFile(path.join(dir, 'routes', 'b.yml'), route('b'))
    await writeFile(path.join(dir, 'routes', 'notes.txt'), 'not a manifest')
    await writeFile(path.join(dir, 'dup.yaml'), route('a'))
    await writeFile(path.join(dir, 'binary.yaml'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]))
    await writeFile(path.join(dir, 'huge.yaml'), '')
    await truncate(path.join(dir, 'huge.yaml'), MAX_FILE_BYTES + 1)
  })

  it('expands directories (manifest extensions only), files and globs', async () => {
    const files = await expandManifestPaths(['routes', 'routes/*.yaml'], dir)
    expect(files.map((f) => path.relative(dir, f))).toEqual(['routes/a.yaml', 'routes/b.yml'])
  })

  it('names an entry that matches nothing', async () => {
    expect(await messageOf(() => expandManifestPaths(['nope/*.yaml'], dir))).toBe(
      'manifests entry "nope/*.yaml": no such file'
    )
  })

  it('rejects a Route defined twice, naming both places', async () => {
    const files = await expandManifestPaths(['routes/a.yaml', 'dup.yaml'], dir)
    expect(await messageOf(() => loadManifests(files, dir))).toBe(
      'dup.yaml document 1: HTTPRoute shop/a is also defined in routes/a.yaml document 1'
    )
  })

  it('rejects binary data and huge files before parsing', async () => {
    expect(await messageOf(() => loadManifests([path.join(dir, 'binary.yaml')], dir))).toMatch(
      /^binary\.yaml: binary data, not a YAML or JSON manifest$/
    )
    expect(await messageOf(() => loadManifests([path.join(dir, 'huge.yaml')], dir))).toMatch(
      /^huge\.yaml: 134217729 bytes is too large \(at most 128 MiB\)$/
    )
  })
})
