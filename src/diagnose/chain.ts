// The path a request takes through one parent — Route → parent → listener → backends — with the link
// that breaks it marked, so a reader sees at a glance where to look. Diagnosis decides which link is
// broken; the renderers only draw the chain.
import { selectListeners, takesKind } from './listener-selection.ts'
import { formatParentRef } from '../model/parent-ref.ts'
import { routeBackendRefs, describeBackendRef, isServiceRef } from './route-spec.ts'
import { canSee, findGateway, findService, listenerStatusesOf, listenersOf } from './world.ts'
import type { ChainLink, ParentVerdict, RouteObject, World } from '../model/types.ts'

// reasons that say the attachment to the parent (its listeners) failed, not the backends
const ATTACHMENT_REASONS = new Set([
  'NotAllowedByListeners',
  'NoMatchingListenerHostname',
  'NoMatchingParent',
  'UnsupportedValue',
  'IncompatibleFilters',
  'FallBack'
])

export function parentChain(route: RouteObject, parent: ParentVerdict, world: World): ChainLink[] {
  const ref = parent.parentRef
  const reasons = new Set(parent.findings.map((f) => f.reason))
  const failedConditions = new Set(
    parent.findings.filter((f) => f.severity === 'error').map((f) => f.condition)
  )
  const routeLink: ChainLink = {
    label: `${route.kind} ${route.metadata.namespace}/${route.metadata.name}`,
    state: 'ok'
  }
  // the listener is a hop of its own: the parent's link names the object only
  const bare = formatParentRef({ ...ref, sectionName: undefined, port: undefined })
  const parentLabel = ref.kind === 'Gateway' ? `Gateway ${bare}` : bare
  if (ref.kind !== 'Gateway') {
    return [routeLink, { label: parentLabel, state: stateOf(parent.verdict) }]
  }
  const gateway = findGateway(world, ref.namespace, ref.name)
  const gatewayKnown = gateway !== undefined || canSee(world, 'gateways', ref.namespace)
  const gatewayLink: ChainLink = {
    label: parentLabel,
    state: gateway ? 'ok' : gatewayKnown ? 'broken' : 'unknown'
  }
  if (!gateway) return [routeLink, gatewayLink, ...backendLinks(route, world, 'unknown')]

  const statuses = listenerStatusesOf(gateway)
  const selected = selectListeners(listenersOf(gateway), ref).filter(
    (l) => ref.sectionName !== undefined || takesKind(l, statuses, route.kind)
  )
  const attachmentFailed =
    failedConditions.has('Accepted') || [...reasons].some((r) => ATTACHMENT_REASONS.has(r))
  const listenerLink: ChainLink = {
    label:
      selected.length === 0
        ? `no listener${ref.sectionName ? ` named ${ref.sectionName}` : ''}${ref.port ? ` on port ${ref.port}` : ''}`
        : `listener${selected.length > 1 ? 's' : ''} ${selected.map((l) => l.name).join(', ')}`,
    state: selected.length === 0 || attachmentFailed ? 'broken' : acceptedState(parent)
  }
  const refsFailed = failedConditions.has('ResolvedRefs')
  return [
    routeLink,
    gatewayLink,
    listenerLink,
    ...backendLinks(route, world, refsFailed ? 'broken' : resolvedState(parent), reasons)
  ]
}

function stateOf(verdict: ParentVerdict['verdict']): ChainLink['state'] {
  return verdict === 'ready' ? 'ok' : verdict === 'failed' ? 'broken' : 'unknown'
}

function conditionState(parent: ParentVerdict, type: string): ChainLink['state'] {
  const c = parent.conditions.find((x) => x.type === type)
  return c?.status === 'True' && c.fresh !== false ? 'ok' : 'unknown'
}

const acceptedState = (parent: ParentVerdict): ChainLink['state'] =>
  conditionState(parent, 'Accepted')
const resolvedState = (parent: ParentVerdict): ChainLink['state'] =>
  conditionState(parent, 'ResolvedRefs')

/**
 * One link per backendRef. When ResolvedRefs failed, a backend whose Service is known to be missing,
 * or that crosses namespaces under RefNotPermitted, is the broken one; if none can be singled out,
 * every backend is marked.
 */
function backendLinks(
  route: RouteObject,
  world: World,
  state: ChainLink['state'],
  reasons: Set<string> = new Set()
): ChainLink[] {
  const refs = routeBackendRefs(route)
  if (refs.length === 0) return []
  const links = refs.map((ref) => ({ ref, label: describeBackendRef(ref) }))
  if (state !== 'broken') return links.map(({ label }) => ({ label, state }))
  const culprit = (ref: (typeof refs)[number]): boolean =>
    (reasons.has('RefNotPermitted') && ref.namespace !== route.metadata.namespace) ||
    (isServiceRef(ref) &&
      canSee(world, 'services', ref.namespace) &&
      findService(world, ref.namespace, ref.name) === undefined)
  const singled = refs.some(culprit)
  return links.map(({ ref, label }) => ({
    label,
    state: !singled || culprit(ref) ? 'broken' : 'ok'
  }))
}
