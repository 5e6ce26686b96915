// Reads everything predict needs from the whole cluster, read-only (get and list): GatewayClasses,
// Gateways and ListenerSets with status, Routes of every served kind with status, Namespaces with
// labels, Services and ReferenceGrants. Never Secrets: nothing here lists them.
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
  ReferenceGrant: 'referencegrants'
}

/** managedFields are most of an object's bytes and nothing reads them */
function trimmed(object: KubeObject): KubeObject {
  const { managedFields: _, ...metadata } = object.metadata as KubeObject['metadata'] & {
    managedFields?: unknown
  }
  return { ...object, metadata }
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
    ...world.referenceGrants
  ].map(trimmed)
  const forbidden = world.unreadable
  const complete = Object.keys(DUMP_KINDS).filter(
    (kind) => !forbidden.some((sentence) => sentence.startsWith(`${DUMP_KINDS[kind]} `))
  )
  return { objects, forbidden, complete }
}
