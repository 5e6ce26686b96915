// The listeners a parentRef picks from and what their controller refused, shared by the evidence
// for NotAllowedByListeners, NoMatchingListenerHostname and NoMatchingParent.
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { selectListeners } from '../rules/listener-selection.ts'
import { listenerRefusal } from '../rules/refused-listeners.ts'
import { refusalFix } from '../wording/refusals.ts'
import type { Refusal } from '../rules/refused-listeners.ts'

import { gatewayName, lookUpGateway, lookUpListenerSet } from './parents.ts'
import { unique } from '../wording/phrasing.ts'
import { listenerStatusesOf, listenersOf } from '../rules/world.ts'
import type { Listener } from '../rules/world.ts'
import { isListenerSetRef } from '../model/owner.ts'
import type { KubeObject, ParentRef } from '../model/types.ts'

export interface ParentListeners {
  ref: ParentRef
  gateway: KubeObject
  label: string
  all: readonly Listener[]
  selected: Listener[]
}

/**
 * The parent whose listeners the parentRef picks from: a Gateway's own listeners, or a ListenerSet's
 * (a ListenerSet ref never reaches the Gateway's listeners, nor a Gateway ref the ListenerSet's). For a
 * ListenerSet, `gateway` is the ListenerSet: its namespace is the one `from: Same` admits.
 */
export function gatewayListeners(context: DiagnosisContext): ParentListeners | Diagnosis {
  const ref = context.parent?.parentRef
  if (!ref) return { evidence: [] }
  const found = isListenerSetRef(ref)
    ? lookUpListenerSet(ref, context.world)
    : ref.kind === 'Gateway'
      ? lookUpGateway(ref, context.world)
      : undefined
  if (!found) {
    return { evidence: [`The parent is a ${ref.kind}; it has no Gateway listeners to check.`] }
  }
  if ('diagnosis' in found) return found.diagnosis
  const all = listenersOf(found.gateway)
  const label = `${ref.kind} ${gatewayName(ref)}`
  return { ref, gateway: found.gateway, label, all, selected: selectListeners(all, ref) }
}

/** The controllerName the finding or its parent names: whose refusals these are. */
export const writerOf = (context: DiagnosisContext): string | undefined =>
  context.finding.controllerName ?? context.parent?.controllerName ?? undefined

/** The selected listeners the controller refused. */
export function refusalsOf(
  listeners: Listener[],
  gateway: KubeObject,
  context: DiagnosisContext
): Refusal[] {
  const statuses = listenerStatusesOf(gateway)
  return listeners.flatMap((l) => {
    const status = statuses.find((s) => s.name === l.name)
    const refusal = listenerRefusal(l, status, context.route.kind)
    return refusal ? [refusal] : []
  })
}

/** What to change for each refusal, once each, in the order of the listeners. */
export function refusalFixes(refusals: Refusal[], context: DiagnosisContext): string[] {
  return unique(refusals.map((r) => refusalFix(r, writerOf(context))))
}

export function plural(items: unknown[], one: string, many: string): string {
  return items.length > 1 ? many : one
}

/** A parentRef's port narrows sectionName too: moving to a listener on another port moves the port. */
export function portToo(ref: ParentRef, listener: Listener | undefined): string {
  if (ref.port === undefined || listener?.port === ref.port) return ''
  return listener?.port === undefined ? ' and drop port' : ` and port: ${listener.port}`
}

/** A listener that the parentRef does not select but that would take the Route: "set sectionName". */
export function alternatives(
  all: readonly Listener[],
  selected: Listener[],
  accept: (l: Listener) => boolean
): Listener[] {
  const chosen = new Set(selected.map((l) => l.name))
  return all.filter((l) => !chosen.has(l.name) && accept(l))
}
