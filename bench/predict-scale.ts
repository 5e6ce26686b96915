// predict on a large cluster (issues 20 and 24: 5,000 Routes predicted in under a second): N Routes
// across 100 namespaces, one Service each, a Gateway whose listeners admit by selector,
// ReferenceGrants, and as many existing Routes with status for self-calibration. The offline bench
// times `route-gate predict` end to end on them (a route-gate dump and the manifests, as JSON);
// run directly, this prints the time of predict() alone.
// Run: npx node --experimental-strip-types bench/predict-scale.ts [N]
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { ManifestDocument } from '../src/read/manifests.ts'
import { DUMP_HEADER_PREFIX } from '../src/read/dump-header.ts'
import type { KubeObject } from '../src/model/types.ts'
import { explainRoute } from '../src/diagnose/explain.ts'
import { predict } from '../src/predict/index.ts'
import { NEEDED_KINDS } from '../src/predict/overlay.ts'

const G = 'gateway.networking.k8s.io'
const namespaces = 100
const COMPLETE: string[] = [...NEEDED_KINDS]

const doc = (object: KubeObject, i: number): ManifestDocument => ({
  file: 'bench.yaml',
  index: i + 1,
  line: i + 1,
  object
})

function route(ns: string, name: string, backend: string, withStatus: boolean): KubeObject {
  const parentRef = { name: 'edge', namespace: 'infra', sectionName: 'http' }
  return {
    apiVersion: `${G}/v1`,
    kind: 'HTTPRoute',
    metadata: { name, namespace: ns, generation: 1 },
    spec: {
      parentRefs: [parentRef],
      hostnames: [`${name}.example.com`],
      rules: [
        {
          backendRefs: [
            { name: backend, port: 80 },
            { name: 'shared', namespace: 'common', port: 80 }
          ]
        }
      ]
    },
    ...(withStatus
      ? {
          status: {
            parents: [
              {
                parentRef,
                controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
                conditions: [
                  { type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 1 },
                  {
                    type: 'ResolvedRefs',
                    status: 'True',
                    reason: 'ResolvedRefs',
                    observedGeneration: 1
                  }
                ]
              }
            ]
          }
        }
      : {})
  }
}

export function predictScale(routes: number): { cluster: KubeObject[]; manifests: KubeObject[] } {
  const cluster: KubeObject[] = [
    {
      apiVersion: `${G}/v1`,
      kind: 'GatewayClass',
      metadata: { name: 'eg' },
      spec: { controllerName: 'gateway.envoyproxy.io/gatewayclass-controller' }
    },
    {
      apiVersion: `${G}/v1`,
      kind: 'Gateway',
      metadata: { name: 'edge', namespace: 'infra' },
      spec: {
        gatewayClassName: 'eg',
        listeners: [
          {
            name: 'http',
            port: 80,
            protocol: 'HTTP',
            hostname: '*.example.com',
            allowedRoutes: {
              namespaces: { from: 'Selector', selector: { matchLabels: { edge: 'yes' } } }
            }
          }
        ]
      }
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'shared', namespace: 'common' },
      spec: { ports: [{ port: 80 }] }
    }
  ]
  for (let n = 0; n < namespaces; n++) {
    const ns = `ns${n}`
    cluster.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns, labels: { edge: 'yes' } }
    })
    cluster.push({
      apiVersion: `${G}/v1beta1`,
      kind: 'ReferenceGrant',
      metadata: { name: `from-${ns}`, namespace: 'common' },
      spec: {
        from: [{ group: G, kind: 'HTTPRoute', namespace: ns }],
        to: [{ group: '', kind: 'Service' }]
      }
    })
  }
  const manifests: KubeObject[] = []
  for (let i = 0; i < routes; i++) {
    const ns = `ns${i % namespaces}`
    cluster.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `r${i}`, namespace: ns },
      spec: { ports: [{ port: 80 }] }
    })
    cluster.push(route(ns, `existing${i}`, `r${i}`, true))
    manifests.push(route(ns, `r${i}`, `r${i}`, false))
  }
  return { cluster, manifests }
}

/** Writes the cluster as a route-gate dump and the manifests as one List, both JSON; returns their paths. */
export async function writePredictScale(
  dir: string,
  routes: number
): Promise<{ dump: string; manifests: string }> {
  const { cluster, manifests } = predictScale(routes)
  const header = {
    takenAt: new Date().toISOString(),
    cluster: 'bench',
    context: 'bench',
    forbidden: [],
    complete: COMPLETE
  }
  const list = (items: KubeObject[]): string =>
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items })
  const files = {
    dump: path.join(dir, 'predict-dump.json'),
    manifests: path.join(dir, 'predict-routes.json')
  }
  await writeFile(files.dump, `${DUMP_HEADER_PREFIX}${JSON.stringify(header)}\n${list(cluster)}\n`)
  await writeFile(files.manifests, `${list(manifests)}\n`)
  return files
}

if (import.meta.main) {
  const routes = Number(process.argv[2] ?? 5000)
  const { cluster, manifests } = predictScale(routes)
  const started = performance.now()
  const report = predict({
    cluster: cluster.map(doc),
    manifests: manifests.map(doc),
    source: { kind: 'dump', complete: COMPLETE },
    now: new Date(),
    settings: { strict: false, conditions: ['Accepted', 'ResolvedRefs'] },
    toolVersion: 'bench',
    explain: explainRoute
  })
  const elapsed = performance.now() - started
  console.log(
    `predict: ${routes} Routes (+${routes} existing calibrated) in ${elapsed.toFixed(0)} ms; counts ${JSON.stringify(report.counts)}; calibration ${report.prediction.calibration.map((c) => `${c.agrees}/${c.of}`).join(', ')}`
  )
}
