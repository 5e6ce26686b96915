// The path a request takes through one parent — Route → parent → listener → backends — with the link
// that breaks it marked, so a reader sees at a glance where to look. Diagnosis decides which link is
// broken, from what each reason is about; the renderers only draw the chain.
import { controllerReason } from './controller-docs.ts'
import { findController } from '../rules/controllers.ts'
import { selectListeners, takesKind } from '../rules/listener-selection.ts'
import {
  routeBackendRefs,
  describeBackendRef,
  isServiceRef,
  emptyRules,
  reportsEmptyRules
} from '../model/route-spec.ts'
import {
  canSee,
  findGateway,
  findService,
  listenerStatusesOf,
  listenersOf,
  servicePortsOf
} from '../rules/world.ts'
import { formatParentRef } from '../model/parent-ref.ts'
import type { ChainLink, Finding, ParentVerdict, RouteObject, World } from '../model/types.ts'
import { routeIdOf } from '../model/route-id.ts'

// reasons about the parent's listeners (the attachment), about the backends, or else about the Route
const LISTENER_REASONS = new Set([
  'NotAllowedByListeners',
  'NoMatchingListenerHostname',
  'NoMatchingParent'
])
const BACKEND_REASONS = new Set([
  'BackendNotFound',
  'RefNotPermitted',
  'InvalidKind',
  'UnsupportedProtocol'
])
// route-gate's own reasons for status that is missing or old: no hop is known to be broken
const WAITING_REASONS = new Set(['NoStatus', 'StaleStatus', 'ConditionMissing', 'ConditionUnknown'])

type Hop = 'route' | 'listener' | 'backend'

/** The hop a failed finding is about: a controller's own reason counts as the standard one it is like. */
function hopOf(finding: Finding, controllerName: string | null): Hop | undefined {
  if (finding.severity !== 'error' || WAITING_REASONS.has(finding.reason)) return undefined
  const like =
    controllerReason(findController(controllerName), finding.condition, finding.reason)?.like ??
    finding.reason
  if (LISTENER_REASONS.has(like)) return 'listener'
  if (BACKEND_REASONS.has(like)) return 'backend'
  // another reason on ResolvedRefs is still about references
  return finding.condition === 'ResolvedRefs' ? 'backend' : 'route'
}

export function parentChain(route: RouteObject, parent: ParentVerdict, world: World): ChainLink[] {
  const ref = parent.parentRef
  const findings = parent.findings
  const hops = new Set(findings.map((f) => hopOf(f, parent.controllerName)))
  const emptyRuleFindings = findings.filter((f) => reportsEmptyRules(f.message, route))
  const routeLink: ChainLink = {
    label: routeIdOf(route),
    state: hops.has('route') ? 'broken' : 'ok'
  }
  // the listener is a hop of its own: the parent's link names the object only
  const bare = formatParentRef({ ...ref, sectionName: undefined, port: undefined })
  const parentLabel = ref.kind === 'Gateway' ? `Gateway ${bare}` : bare
  if (ref.kind !== 'Gateway') {
    const state = hops.has('route') ? 'ok' : stateOf(parent.verdict)
    return [routeLink, { label: parentLabel, state }]
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
  const listenerLink: ChainLink = {
    label:
      selected.length === 0
        ? `no listener${ref.sectionName ? ` named ${ref.sectionName}` : ''}${ref.port ? ` on port ${ref.port}` : ''}`
        : `listener${selected.length > 1 ? 's' : ''} ${selected.map((l) => l.name).join(', ')}`,
    state:
      selected.length === 0 || hops.has('listener')
        ? 'broken'
        : hops.has('route')
          ? 'ok'
          : acceptedState(parent)
  }
  // a reason about rules without backendRefs says nothing against the backends other rules name
  const backendsBroken = findings.some(
    (f) => hopOf(f, parent.controllerName) === 'backend' && !emptyRuleFindings.includes(f)
  )
  const backends =
    emptyRuleFindings.length > 0 && !backendsBroken
      ? verifiedBackendLinks(route, world)
      : backendLinks(
          route,
          world,
          backendsBroken ? 'broken' : resolvedState(parent),
          new Set(findings.map((f) => f.reason))
        )
  return [
    routeLink,
    gatewayLink,
    listenerLink,
    ...backends,
    ...(emptyRuleFindings.length > 0
      ? emptyRules(route).map((rule) => ({
          label: `rule ${rule.index}: no backendRefs`,
          state: 'broken' as const
        }))
      : [])
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

/** Backends whose Service was read and has the port are ok; the rest unknown. */
function verifiedBackendLinks(route: RouteObject, world: World): ChainLink[] {
  return routeBackendRefs(route).map((ref) => {
    const service = isServiceRef(ref) ? findService(world, ref.namespace, ref.name) : undefined
    const resolves =
      service !== undefined && servicePortsOf(service).some((p) => p.port === ref.port)
    return { label: describeBackendRef(ref), state: resolves ? 'ok' : 'unknown' }
  })
}

/**
 * One link per backendRef. When a backend reason failed, a backend whose Service is known to be
 * missing, or that crosses namespaces under RefNotPermitted, is the broken one; if none can be singled
 * out, every backend is marked.
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
