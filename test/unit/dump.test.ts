// The dump file: what `route-gate dump` writes is what check --from-file and a later predict read,
// its header round-trips, and neither credentials nor a malformed header get through.
import { describe, expect, it } from 'vitest'
import { parseCommandLine } from '../../src/cli/verbs.ts'
import { publicServer } from '../../src/cluster/connect.ts'
import { readDumpHeader, renderDump, type DumpHeader } from '../../src/jobs/dump.ts'
import { InputError } from '../../src/runtime/errors.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import { parseManifestText } from '../../src/read/manifests.ts'
import type { KubeObject } from '../../src/model/types.ts'
import { splitDump } from '../../src/jobs/snapshot.ts'

const HEADER: DumpHeader = {
  takenAt: '2026-12-04T03:00:00.000Z',
  cluster: 'https://api.example:6443',
  context: 'prod',
  forbidden: ['services in namespace shop: forbidden (list)'],
  complete: ['Gateway', 'HTTPRoute', 'Namespace']
}

const OBJECTS: KubeObject[] = [
  {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: 'web', namespace: 'infra' },
    spec: { gatewayClassName: 'contour', listeners: [] }
  },
  {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'shop', namespace: 'shop' },
    spec: { parentRefs: [{ name: 'web', namespace: 'infra' }] }
  },
  {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop', labels: { team: 'shop' } }
  }
]

function settingsOf(args: string[]) {
  const parsed = parseCommandLine(args)
  if ('help' in parsed) throw new Error('help')
  return parseSettings((name) => parsed.values.get(name), parsed.verb.command, {
    kubeconfig: 'path'
  })
}

describe('the dump file', () => {
  const text = renderDump({ objects: OBJECTS, forbidden: HEADER.forbidden, complete: [] }, HEADER)

  it('is one List that check --from-file sorts into Routes and the world around them', async () => {
    const docs = await parseManifestText(text, 'dump.yaml')
    expect(docs.map((d) => d.object.kind)).toEqual(['Gateway', 'HTTPRoute', 'Namespace'])
    const settings = settingsOf(['check', '--from-file', 'dump.yaml'])
    const { routes, world } = splitDump(docs, settings)
    expect(routes.map((r) => r.route.metadata.name)).toEqual(['shop'])
    expect(world.gateways.map((g) => g.metadata.name)).toEqual(['web'])
    expect(world.namespaces[0]?.metadata.labels).toEqual({ team: 'shop' })
  })

  it('carries its header on line 1 and as List annotations', async () => {
    expect(readDumpHeader(text, 'dump.yaml')).toEqual(HEADER)
    const list = await parseManifestText(text.replace(/^#.*\n/, ''), 'd')
    expect(list).toHaveLength(3)
    expect(text).toContain('route-gate.dev/taken-at: 2026-12-04T03:00:00.000Z')
    expect(text).toContain('route-gate.dev/context: prod')
  })

  it('reads no header from a file another tool wrote', () => {
    expect(readDumpHeader('apiVersion: v1\nkind: List\nitems: []\n', 'x.yaml')).toBeUndefined()
  })

  it('names the file and line of a broken header', () => {
    expect(() => readDumpHeader('# route-gate dump {nope\n', 'd.yaml')).toThrow(
      new InputError('d.yaml line 1: the route-gate dump header is not valid JSON')
    )
    expect(() =>
      readDumpHeader(
        `# route-gate dump ${JSON.stringify({ ...HEADER, takenAt: 'soon' })}\n`,
        'd.yaml'
      )
    ).toThrow(/d\.yaml line 1: .*takenAt \(a time\)/)
  })
})

describe('publicServer', () => {
  it('drops user, password, query and fragment', () => {
    expect(publicServer('https://admin:s3cret@api.example:6443/?token=abc#x')).toBe(
      'https://api.example:6443'
    )
    expect(publicServer('https://api.example:6443/prefix')).toBe('https://api.example:6443/prefix')
  })

  it('drops user info even from a server that is not a URL', () => {
    expect(publicServer('//admin:s3cret@api example')).toBe('//api example')
  })
})

describe('route-gate dump flags', () => {
  it('-o, --output and --output-file name the file; --kubeconfig and --context pass through', () => {
    for (const flag of ['-o', '--output', '--output-file']) {
      const s = settingsOf(['dump', flag, 'out.yaml', '--kubeconfig', 'k', '--context', 'c'])
      expect(s).toMatchObject({
        command: 'dump',
        outputFile: 'out.yaml',
        kubeconfigFile: 'k',
        context: 'c'
      })
    }
    expect(settingsOf(['dump', '-o', '-']).outputFile).toBe('-')
  })

  it('needs -o, and takes no gate flags', () => {
    expect(() => settingsOf(['dump'])).toThrow(/Nowhere to write the dump: set -o FILE/)
    expect(() => settingsOf(['dump', '-o', 'x', '--manifests', 'a.yaml'])).toThrow(
      /Flag --manifests belongs to route-gate check, not dump/
    )
  })

  it('lists -o as its short form in its help', () => {
    const parsed = parseCommandLine(['dump', '--help'])
    expect('help' in parsed && parsed.help).toMatch(/-o, --output-file FILE/)
  })
})
