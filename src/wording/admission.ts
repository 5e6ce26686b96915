// A listener's admission of a Route, as the sentences of the evidence and of predicted messages.
import type { Admission, AdmissionCause } from '../rules/admission.ts'
import { describeListener } from './objects.ts'
import { listing } from './phrasing.ts'
import { describeSelector, describeUnmet } from './selectors.ts'

function causeSentence(a: Admission, cause: AdmissionCause, label: string): string | undefined {
  switch (cause.cause) {
    case 'same-namespace-only':
      return `${label} admits Routes from namespace ${cause.gatewayNamespace} only (from: Same); the ${a.routeKind} is in ${a.routeNamespace}.`
    case 'namespace-unread':
      return `${label} admits namespaces matching ${describeSelector(cause.selector)}; the labels of namespace ${a.routeNamespace} could not be read.`
    case 'selector-unmet':
      return `${label} admits namespaces matching ${describeSelector(cause.selector)}; namespace ${a.routeNamespace} does not match: ${cause.unmet.map(describeUnmet).join('; ')}.`
    case 'unknown-from':
      return `${label} has allowedRoutes.namespaces.from: ${cause.from}, which is not All, Same or Selector.`
    case 'listener-refused': {
      const { reason, message } = cause.condition
      return `${label} was refused by its controller (Accepted=False, ${reason ?? 'Accepted=False'}${message ? `: ${message}` : ''}), so it admits no Route.`
    }
    case 'kind-not-taken':
      // a refused listener's empty supportedKinds follows from the refusal: no second cause
      if (a.refusedBy !== undefined && cause.kinds.length === 0) return undefined
      return `${label} takes ${cause.kinds.length === 0 ? 'no Route kind' : listing(cause.kinds)}, not ${a.routeKind}.`
  }
}

/** Why the listener refuses the Route (or cannot be judged), as sentences; empty when it admits. */
export function admissionWhy(a: Admission): string[] {
  if (a.causes.length === 0) return []
  const label = `Listener ${describeListener(a.listener)}`
  return a.causes.flatMap((cause) => causeSentence(a, cause, label) ?? [])
}
