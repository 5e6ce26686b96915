// Objects for predict's unit tests: a Gateway API cluster as a dump would hold it, built per test.
import type { ManifestDocument } from '../../../src/read/manifests.ts'
import type { KubeObject } from '../../../src/model/types.ts'
import { predict } from '../../../src/predict/index.ts'
import { NEEDED_KINDS } from '../../../src/predict/overlay.ts'
import { explainRoute } from '../../../src/diagnose/explain.ts'
import type { PredictInput } from '../../../src/predict/index.ts'
import type { PredictReport } from '../../../src/model/types.ts'

export const ENVOY = 'gateway.envoyproxy.io/gatewayclass-controller'
export const TRAEFIK = 'traefik.io/gateway-controller'
export const CONTOUR = 'projectcontour.io/gateway-controller'
export const EVERY_KIND: string[] = [...NEEDED_KINDS]

const G = 'gateway.networking.k8s.io'

export function gatewayClass(name: string, controllerName: string): KubeObject {
  return {
    apiVersion: `${G}/v1`,
    kind: 'GatewayClass',
    metadata: { name },
    spec: { controllerName },
    status: { conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted' }] }
  }
}

export interface ListenerSpec {
  name: string
  port?: number
  protocol?: string
  hostname?: string
  allowedRoutes?: unknown
}

export function gateway(
  namespace: string,
  name: string,
  listeners: ListenerSpec[],
  options: { className?: string; status?: unknown; allowedListeners?: unknown } = {}
): KubeObject {
  return {
    apiVersion: `${G}/v1`,
    kind: 'Gateway',
    metadata: { name, namespace },
    spec: {
      gatewayClassName: options.className ?? 'eg',
      listeners: listeners.map((l) => ({ port: 80, protocol: 'HTTP', ...l })),
      ...(options.allowedListeners ? { allowedListeners: options.allowedListeners } : {})
    },
    ...(options.status ? { status: options.status } : {})
  }
}

export function namespace(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }
}

export function service(
  namespace: string,
  name: string,
  ports: number[] = [80],
  type?: string
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: { ...(type ? { type } : {}), ports: ports.map((port) => ({ port })) }
  }
}

export function referenceGrant(
  namespace: string,
  fromNamespace: string,
  to: { kind?: string; name?: string } = {}
): KubeObject {
  return {
    apiVersion: `${G}/v1beta1`,
    kind: 'ReferenceGrant',
    metadata: { name: `from-${fromNamespace}`, namespace },
    spec: {
      from: [{ group: G, kind: 'HTTPRoute', namespace: fromNamespace }],
      to: [{ group: '', kind: to.kind ?? 'Service', ...(to.name ? { name: to.name } : {}) }]
    }
  }
}

export function httpRoute(
  namespace: string,
  name: string,
  spec: { parentRefs?: unknown[]; hostnames?: string[]; backendRefs?: unknown[] },
  status?: unknown
): KubeObject {
  return {
    apiVersion: `${G}/v1`,
    kind: 'HTTPRoute',
    metadata: { name, namespace, generation: 1 },
    spec: {
      ...(spec.parentRefs ? { parentRefs: spec.parentRefs } : {}),
      ...(spec.hostnames ? { hostnames: spec.hostnames } : {}),
      rules: [{ backendRefs: spec.backendRefs ?? [{ name: 'web', port: 80 }] }]
    },
    ...(status ? { status } : {})
  }
}

export function docs(objects: KubeObject[], file = 'routes.yaml'): ManifestDocument[] {
  return objects.map((object, i) => ({ file, index: i + 1, line: i * 10 + 1, object }))
}

/** The usual cluster: class eg (Envoy Gateway), Gateway infra/edge admitting every namespace on port 80, Service app/web:80. */
export function baseCluster(): KubeObject[] {
  return [
    gatewayClass('eg', ENVOY),
    namespace('infra'),
    namespace('app', { team: 'web' }),
    gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'All' } } }]),
    service('app', 'web')
  ]
}

export const EDGE = { name: 'edge', namespace: 'infra' }

export function run(
  cluster: KubeObject[],
  manifests: KubeObject[],
  options: Partial<Pick<PredictInput, 'source'>> & { conditions?: string[] } = {}
): PredictReport {
  return predict({
    cluster: docs(cluster, 'dump.yaml'),
    manifests: docs(manifests),
    source: options.source ?? { kind: 'dump', complete: EVERY_KIND },
    now: new Date('2026-12-04T04:00:00Z'),
    settings: { strict: false, conditions: options.conditions ?? ['Accepted', 'ResolvedRefs'] },
    toolVersion: '0.0.0-test',
    explain: explainRoute
  })
}

/** The one parent of the one Route predicted. */
export function onlyParent(report: PredictReport) {
  const parent = report.routes[0]?.parents[0]
  if (!parent) throw new Error('no parent predicted')
  return parent
}

export function condition(report: PredictReport, type: string) {
  return onlyParent(report).conditions?.find((c) => c.type === type)
}
