// route-gate's table of CRD limits, held against the CRDs the real API server serves: every limit
// must sit at a path the schema has, with the largest value any served version allows. A pull
// request's object over a limit is then refused by route-gate exactly where the API server would.
import { describe, expect, it } from 'vitest'
import { LIMITS, type Limit } from '../../src/model/api-limits.ts'
import { GATEWAY_GROUP } from '../../src/model/types.ts'
import { parseManifestText } from '../../src/read/manifests.ts'
import { kube, testNamespace } from '../helpers/cluster.ts'

interface Schema {
  properties?: Record<string, Schema>
  items?: Schema
  maxItems?: number
  maxLength?: number
}

interface Crd {
  spec: { versions: { name: string; served: boolean; schema: { openAPIV3Schema: Schema } }[] }
}

const PLURALS: Record<string, string> = {
  HTTPRoute: 'httproutes',
  GRPCRoute: 'grpcroutes',
  TLSRoute: 'tlsroutes',
  TCPRoute: 'tcproutes',
  UDPRoute: 'udproutes',
  Gateway: 'gateways',
  ListenerSet: 'listenersets',
  GatewayClass: 'gatewayclasses',
  ReferenceGrant: 'referencegrants'
}

interface Entry {
  path: string[]
  bound: 'maxItems' | 'maxLength'
  value: number
}

/** Every bound in a limit, with its path as schema segments ("[]" for a list's items). */
function entries(limit: Limit, path: string[] = []): Entry[] {
  const out: Entry[] = []
  if (limit.items !== undefined) out.push({ path, bound: 'maxItems', value: limit.items })
  if (limit.length !== undefined) out.push({ path, bound: 'maxLength', value: limit.length })
  if (limit.each) out.push(...entries(limit.each, [...path, '[]']))
  for (const [field, below] of Object.entries(limit.fields ?? {})) {
    out.push(...entries(below, [...path, field]))
  }
  return out
}

function nodeAt(schema: Schema, path: string[]): Schema | undefined {
  let node: Schema | undefined = schema
  for (const segment of path) {
    node = segment === '[]' ? node?.items : node?.properties?.[segment]
  }
  return node
}

async function servedSchemas(kind: string): Promise<Schema[]> {
  const crd = (await kube().objects.read({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURALS[kind]}.${GATEWAY_GROUP}` }
  })) as unknown as Crd
  return crd.spec.versions.filter((v) => v.served).map((v) => v.schema.openAPIV3Schema)
}

describe('the CRD limits route-gate enforces', () => {
  it.each(Object.keys(LIMITS[GATEWAY_GROUP]!))(
    '%s: each limit is the served CRD schema’s, at the same path',
    async (kind) => {
      const schemas = await servedSchemas(kind)
      expect(schemas.length).toBeGreaterThan(0)
      const wrong: string[] = []
      for (const { path, bound, value } of entries(LIMITS[GATEWAY_GROUP]![kind]!)) {
        const nodes = schemas.map((s) => nodeAt(s, path)).filter((n) => n !== undefined)
        const served = Math.max(...nodes.map((n) => n[bound] ?? -1))
        if (served !== value) wrong.push(`${path.join('.')} ${bound}: ${value}, served ${served}`)
      }
      expect(wrong).toEqual([])
    }
  )

  it('refuses what the API server refuses, and accepts what it accepts', async () => {
    const namespace = await testNamespace('api-limits')
    const route = (name: string, count: number) => ({
      apiVersion: `${GATEWAY_GROUP}/v1`,
      kind: 'HTTPRoute',
      metadata: { name, namespace },
      spec: { parentRefs: Array.from({ length: count }, (_, i) => ({ name: `g${i}` })) }
    })
    // 422 is the API server's validation refusal; any other failure is the test's, not an answer
    const server = async (object: object): Promise<string> =>
      kube()
        .objects.create(object, undefined, 'All')
        .then(
          () => 'accepted',
          (error: { code?: number }) => (error.code === 422 ? 'refused' : `error ${error.code}`)
        )
    const ours = async (object: object): Promise<'accepted' | 'refused'> =>
      parseManifestText(JSON.stringify(object), 'pr.json').then(
        () => 'accepted',
        () => 'refused'
      )
    for (const object of [
      route('web', 32),
      route('web', 33),
      route('Web', 1),
      route('web.v2', 1),
      route(`${'a'.repeat(253)}`, 1),
      route(`${'a'.repeat(254)}`, 1)
    ]) {
      expect(await ours(object), object.metadata.name).toBe(await server(object))
    }
  })
})
