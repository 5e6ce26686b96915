// Large dumps go through the fast reader; they must come out exactly as the precise reader reads them.
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { InputError } from '../../../src/runtime/errors.ts'
import { parseManifestText } from '../../../src/read/manifests.ts'

const route = (i: number) => ({
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { name: `r-${i}`, namespace: `ns-${i % 7}`, generation: 2, labels: { app: 'web' } },
  spec: {
    parentRefs: [{ name: 'edge', namespace: 'infra', sectionName: 'http' }],
    hostnames: [`h${i}.example.com`, '*.example.com'],
    rules: [{ backendRefs: [{ name: `svc-${i}`, port: 8080 }] }]
  },
  status: {
    parents: [
      {
        parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'edge' },
        controllerName: 'example.com/gw',
        conditions: [
          {
            type: 'Accepted',
            status: 'True',
            reason: 'Accepted',
            observedGeneration: 2,
            message: 'yes: "quoted" & #hash'
          }
        ]
      }
    ]
  }
})

/** The 1-based lines where text matching `start` begins. */
const linesOf = (text: string, start: RegExp) =>
  text.split('\n').flatMap((line, i) => (start.test(line) ? [i + 1] : []))

describe('large texts', () => {
  const items = Array.from({ length: 3000 }, (_, i) => route(i))

  it('reads a >1 MiB List with the same values and the line of every item', async () => {
    const text = stringify({
      apiVersion: 'v1',
      kind: 'List',
      items,
      metadata: { resourceVersion: '' }
    })
    expect(text.length).toBeGreaterThan(1024 * 1024)
    const docs = await parseManifestText(text, 'dump.yaml')
    expect(docs.map((d) => d.object)).toEqual(items)
    expect(docs.map((d) => d.line)).toEqual(linesOf(text, /^ {2}- apiVersion:/))
    expect(docs.every((d) => d.index === 1)).toBe(true)
  })

  it("reads >1 MiB of multi-document YAML with each document's line and index", async () => {
    const text = items.map((item) => `---\n${stringify(item)}`).join('')
    const docs = await parseManifestText(text, 'routes.yaml')
    expect(docs).toHaveLength(items.length)
    expect(docs.map((d) => d.line)).toEqual(linesOf(text, /^apiVersion:/))
    expect(docs.map((d) => d.index)).toEqual(items.map((_, i) => i + 1))
  })

  it('reads >1 MiB of JSON as JSON', async () => {
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2)
    const docs = await parseManifestText(text, 'dump.json')
    expect(docs.map((d) => d.object)).toEqual(items)
    expect(docs[1]?.line).toBe(linesOf(text, /^ {4}\{$/)[1])
  })

  it('still refuses an alias bomb and explains a syntax error precisely', async () => {
    const padding = `# ${'x'.repeat(1024 * 1024)}\n`
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]']
    for (let i = 1; i < 12; i++) {
      const [prev, next] = [String.fromCharCode(96 + i), String.fromCharCode(97 + i)]
      levels.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(', ')}]`)
    }
    const bomb = `${padding}apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`
    await expect(parseManifestText(bomb, 'bomb.yaml')).rejects.toThrow(InputError)
    await expect(parseManifestText(bomb, 'bomb.yaml')).rejects.toThrow(/alias/i)
    const broken = `${padding}apiVersion: v1\nkind: [unclosed\n`
    await expect(parseManifestText(broken, 'broken.yaml')).rejects.toThrow(
      /^broken\.yaml document 1 \(line \d+, column \d+\): invalid YAML/
    )
  })
})
