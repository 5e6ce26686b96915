// Reads everything predict needs from the whole cluster, read-only (get and list): GatewayClasses,
// Gateways and ListenerSets with status, Routes of every served kind with status, Namespaces with
// labels, Services, ReferenceGrants and BackendTLSPolicies. Never Secrets: nothing here lists them.
import { ROUTE_KINDS, type KubeObject } from '../model/types.ts'
import { listRoutes } from './routes.ts'
import type { Session } from './session.ts'
import type { ClusterDump } from './types.ts'
import { readWorld } from './read-world.ts'

/** The kinds a dump holds, by the plural their forbidden sentences start with. */
const DUMP_KINDS: Record<string, string> = {
  GatewayClass: 'gatewayclasses',
  Gateway: 'gateways',
  ListenerSet: 'listenersets',
  XListenerSet: 'xlistenersets',
  ...Object.fromEntries(ROUTE_KINDS.map((kind) => [kind, `${kind.toLowerCase()}s`])),
  Namespace: 'namespaces',
  Service: 'services',
  ReferenceGrant: 'referencegrants',
  BackendTLSPolicy: 'backendtlspolicies'
}

/**
 * What of an object's metadata a dump keeps: an allow-list, because a dump travels (an artifact, a
 * file predict reads beside a pull request's manifests) and nothing in predict reads annotations
 * (no rule, model or diagnosis does), while they carry whatever tools put there: kubectl's
 * last-applied-configuration (the whole object as last applied), cloud load-balancer settings and
 * internal addresses on Services. managedFields are most of an object's bytes and
 * nothing reads them either. Keep a field only where a reader of it exists.
 */
const KEPT_METADATA = [
  'name',
  'namespace',
  'labels', // Namespace selectors (allowedRoutes), label selectors of --selector
  'generation', // observedGeneration of Route and Gateway conditions
  'resourceVersion', // fail-fast tells one version of a Route from the next
  'creationTimestamp', // the dump's clock (model/clock.ts)
  'deletionTimestamp', // Terminating Routes
  'finalizers' // what still holds a Terminating Route
] as const

/** The object as the dump holds it: its metadata cut to KEPT_METADATA, everything else as read. */
export function dumpedObject(object: KubeObject): KubeObject {
  const metadata: Record<string, unknown> = {}
  const read = object.metadata as Record<string, unknown>
  for (const key of KEPT_METADATA) if (read[key] !== undefined) metadata[key] = read[key]
  return { ...object, metadata: metadata as KubeObject['metadata'] }
}

export async function readClusterDump(session: Session): Promise<ClusterDump> {
  const [world, routes] = await Promise.all([
    readWorld(session, 'all'),
    listRoutes(session, { kinds: [...ROUTE_KINDS], namespaces: 'all' })
  ])
  const objects = [
    ...world.gatewayClasses,
    ...world.gateways,
    ...(world.listenerSets ?? []),
    ...routes,
    ...world.namespaces,
    ...world.services,
    ...world.referenceGrants,
    ...(world.backendTLSPolicies ?? [])
  ].map(dumpedObject)
  const forbidden = world.unreadable
  const complete = Object.keys(DUMP_KINDS).filter(
    (kind) => !forbidden.some((sentence) => sentence.startsWith(`${DUMP_KINDS[kind]} `))
  )
  return { objects, forbidden, complete }
}
