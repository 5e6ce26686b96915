// Which listeners of a parent admit a Route, before hostnames: the listener rules' answer that both
// Accepted and Contour's virtual hosts read.
import { admission, admits } from '../rules/admission.ts'
import type { Admission } from '../rules/admission.ts'
import type { Attachment } from '../rules/contour-vhosts.ts'
import { selectListeners } from '../rules/listener-selection.ts'
import { listenersOf } from '../rules/world.ts'
import type { Listener } from '../rules/world.ts'
import type { KubeObject, ParentRef, RouteObject } from '../model/types.ts'
import type { Objects } from './overlay.ts'

/** The selected listeners' admissions: those that admit the Route, and those the source cannot decide. */
export function admissionsOf(
  route: RouteObject,
  selected: readonly Listener[],
  holder: KubeObject,
  objects: Objects
): { admissions: Admission[]; admitted: Admission[]; undecided: Admission[] } {
  const admissions = selected.map((l) => admission(l, holder, route, objects.world))
  return {
    admissions,
    // admits() lets an undecided namespace through (the diagnosis only refutes with it); predict must not
    admitted: admissions.filter((a) => admits(a) && a.namespace === 'ok'),
    // a listener whose namespace check needs labels the source lacks may still admit the Route
    undecided: admissions.filter(
      (a) => a.namespace === 'unknown' && a.kind === 'ok' && a.refusedBy === undefined
    )
  }
}

/** The listeners of a Gateway a parentRef attaches through, before hostnames: what Contour fills. */
export function attachmentOf(
  route: RouteObject,
  ref: ParentRef,
  gateway: KubeObject,
  objects: Objects
): Attachment {
  const selected = selectListeners(listenersOf(gateway), ref)
  const { admitted, undecided } = admissionsOf(route, selected, gateway, objects)
  return {
    listeners: [...admitted, ...undecided].map((a) => a.listener),
    undecided: undecided.length > 0
  }
}
