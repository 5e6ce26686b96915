// Who owns a parent: the objects behind a parentRef (Gateway, ListenerSet, GatewayClass) and the
// controller whose status entries count. The one lookup the verdict and the diagnosis share.
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP } from './types.ts'
import type { KubeObject, ParentRef, World } from './types.ts'
import { findByName } from './object-index.ts'
import { isRecord, stringField } from './unknown.ts'

export type OwnerWorld = Pick<World, 'gatewayClasses' | 'gateways' | 'listenerSets'>

/** The ListenerSet kinds, by API group: standard since Gateway API v1.5, experimental before. */
const LISTENER_SET_KINDS: Record<string, string> = {
  [GATEWAY_GROUP]: 'ListenerSet',
  [EXPERIMENTAL_GROUP]: 'XListenerSet'
}

/** The API group of an object's apiVersion: '' for the core group (`v1`). */
export function apiGroupOf(object: KubeObject): string {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const slash = apiVersion.indexOf('/')
  return slash === -1 ? '' : apiVersion.slice(0, slash)
}

/** The object of that name (and namespace, for namespaced kinds); objects of odd shapes are skipped. */
export function findObject(
  objects: KubeObject[],
  name: string,
  namespace?: string
): KubeObject | undefined {
  return findByName(objects, name, namespace)
}

export function findGateway(
  world: Pick<World, 'gateways'>,
  namespace: string,
  name: string
): KubeObject | undefined {
  return findObject(world.gateways, name, namespace)
}

export function findGatewayClass(
  world: Pick<World, 'gatewayClasses'>,
  name: string
): KubeObject | undefined {
  return findObject(world.gatewayClasses, name)
}

export function isGatewayRef(ref: ParentRef): boolean {
  return ref.group === GATEWAY_GROUP && ref.kind === 'Gateway'
}

/** A parentRef to the Gateway `namespace/name`. */
export function refersToGateway(ref: ParentRef, namespace: string, name: string): boolean {
  return isGatewayRef(ref) && ref.namespace === namespace && ref.name === name
}

/** A parentRef to a ListenerSet (gateway.networking.k8s.io) or an XListenerSet (gateway.networking.x-k8s.io). */
export function isListenerSetRef(ref: ParentRef): boolean {
  return LISTENER_SET_KINDS[ref.group] === ref.kind
}

/** The ListenerSet a parentRef names: same kind, same API group, same namespace and name. */
export function findListenerSet(
  world: Pick<World, 'listenerSets'>,
  ref: ParentRef
): KubeObject | undefined {
  if (!isListenerSetRef(ref)) return undefined
  const sameKind = (world.listenerSets ?? []).filter(
    (o) => isRecord(o) && o.kind === ref.kind && apiGroupOf(o) === ref.group
  )
  return findObject(sameKind, ref.name, ref.namespace)
}

/**
 * The Gateway a ListenerSet attaches to (spec.parentRef: group and kind default to a Gateway,
 * namespace to the ListenerSet's own); undefined when it names something else.
 */
export function listenerSetGateway(
  listenerSet: KubeObject
): { namespace: string; name: string } | undefined {
  const parentRef: unknown = isRecord(listenerSet.spec) ? listenerSet.spec.parentRef : undefined
  const group = stringField(parentRef, 'group') ?? GATEWAY_GROUP
  const kind = stringField(parentRef, 'kind') || 'Gateway'
  const name = stringField(parentRef, 'name')
  if (group !== GATEWAY_GROUP || kind !== 'Gateway' || !name) return undefined
  const namespace =
    stringField(parentRef, 'namespace') || stringField(listenerSet.metadata, 'namespace') || ''
  return { namespace, name }
}

export function gatewayClassNameOf(gateway: KubeObject): string | undefined {
  return stringField(gateway.spec, 'gatewayClassName')
}

export function controllerNameOf(gatewayClass: KubeObject): string | undefined {
  return stringField(gatewayClass.spec, 'controllerName')
}

/** The Gateway whose class decides the owner: the parent itself, or a ListenerSet's parent Gateway. */
export function ownerGateway(ref: ParentRef, world: OwnerWorld): KubeObject | undefined {
  if (isGatewayRef(ref)) return findGateway(world, ref.namespace, ref.name)
  const listenerSet = findListenerSet(world, ref)
  const parent = listenerSet ? listenerSetGateway(listenerSet) : undefined
  return parent ? findGateway(world, parent.namespace, parent.name) : undefined
}

/** The controllerName of the GatewayClass behind the parent, when every link is known. */
export function ownerController(ref: ParentRef, world: OwnerWorld): string | undefined {
  const gateway = ownerGateway(ref, world)
  const className = gateway ? gatewayClassNameOf(gateway) : undefined
  if (!className) return undefined
  const gatewayClass = findGatewayClass(world, className)
  return (gatewayClass && controllerNameOf(gatewayClass)) || undefined
}
