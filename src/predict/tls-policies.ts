// A backend Service a BackendTLSPolicy covers: its CA certificates live in ConfigMaps and Secrets no
// dump holds, but the policy's own status says what each controller made of it for each Gateway
// (status.ancestors). Valid there: the backend resolves as any other. Invalid there: the Route is
// refused as that controller refuses it. Not yet judged for this Gateway: unknown.
import { conditionsOf } from '../rules/world.ts'
import type { ServicePort } from '../rules/world.ts'
import type { BackendRef } from '../model/route-spec.ts'
import type { Condition, KubeObject } from '../model/types.ts'
import { arrayField, isRecord, stringField } from '../model/unknown.ts'
import type { Objects } from './overlay.ts'

/** What a controller writes on the Route when the policy for its backend is invalid. */
const ROUTE_REASONS: Record<string, string> = {
  'gateway.envoyproxy.io/gatewayclass-controller': 'InvalidBackendTLS',
  'traefik.io/gateway-controller': 'RefNotPermitted'
}

type Judged = 'valid' | 'conflicted' | { invalid: Condition } | undefined

function covers(policy: KubeObject, ref: BackendRef, portName: string | undefined): boolean {
  return (arrayField(policy.spec, 'targetRefs') ?? []).some((target) => {
    const section = stringField(target, 'sectionName')
    return (
      stringField(target, 'kind') === 'Service' &&
      stringField(target, 'name') === ref.name &&
      (section === undefined || section === portName)
    )
  })
}

/** The controller's answer on the policy for this Gateway, at the policy's generation. */
function judged(policy: KubeObject, controllerName: string, gateway: KubeObject): Judged {
  const ancestor = (arrayField(policy.status, 'ancestors') ?? []).find((entry) => {
    const at = isRecord(entry) ? entry.ancestorRef : undefined
    return (
      stringField(entry, 'controllerName') === controllerName &&
      (stringField(at, 'kind') ?? 'Gateway') === 'Gateway' &&
      stringField(at, 'name') === gateway.metadata.name &&
      (stringField(at, 'namespace') ?? policy.metadata.namespace) === gateway.metadata.namespace
    )
  })
  if (ancestor === undefined) return undefined
  const generation = policy.metadata.generation
  const conditions = conditionsOf(ancestor)
  const stale = conditions.some(
    (c) =>
      generation !== undefined &&
      c.observedGeneration !== undefined &&
      c.observedGeneration < generation
  )
  if (stale || conditions.length === 0) return undefined
  // a policy that lost to another covering the same port is set aside, whatever else it says
  if (conditions.some((c) => c.status === 'False' && c.reason === 'Conflicted')) return 'conflicted'
  const refused = conditions.find((c) => c.status === 'False')
  if (refused) return { invalid: refused }
  return conditions.some((c) => c.type === 'Accepted' && c.status === 'True') ? 'valid' : undefined
}

export type PolicyOutcome = { reason: string; message: string } | { why: string } | undefined

export function tlsPolicyOutcome(
  ref: BackendRef,
  port: ServicePort | undefined,
  controllerName: string | undefined,
  gateway: KubeObject | undefined,
  objects: Objects,
  described: string
): PolicyOutcome {
  const covering = (objects.tlsPolicies(ref.namespace, ref.name) ?? []).filter((p) =>
    covers(p, ref, port?.name)
  )
  if (covering.length === 0) return undefined
  const name = (p: KubeObject): string =>
    `BackendTLSPolicy ${p.metadata.namespace ?? ''}/${p.metadata.name}`
  const gatewayName = gateway
    ? `Gateway ${gateway.metadata.namespace ?? ''}/${gateway.metadata.name}`
    : 'the Gateway'
  const answers = covering.map((p) =>
    controllerName && gateway ? judged(p, controllerName, gateway) : undefined
  )
  const unjudged = covering.find((_, i) => answers[i] === undefined)
  if (unjudged) {
    return {
      why: `${described}: ${name(unjudged)} covers Service ${ref.namespace}/${ref.name}, and its controller has not judged it for ${gatewayName}; whether its CA certificates and hostname are valid rests on ConfigMaps and Secrets the source does not hold.`
    }
  }
  const i = answers.findIndex((a) => typeof a === 'object')
  const invalid = answers[i]
  if (invalid === undefined || typeof invalid !== 'object') return undefined
  const { type, reason } = invalid.invalid
  const found = `${name(covering[i]!)}, which covers Service ${ref.namespace}/${ref.name}, is not valid for ${gatewayName}: its controller wrote ${type}=False ${reason ?? ''} on it`
  const routeReason = controllerName ? ROUTE_REASONS[controllerName] : undefined
  if (!routeReason)
    return { why: `${described}: ${found}; what it writes on the Route then is the controller's.` }
  return { reason: routeReason, message: `${described}: ${found}.` }
}
