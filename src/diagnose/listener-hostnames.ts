// Evidence for NoMatchingListenerHostname: which hostnames each listener accepts, and which of the
// Route's would match.
import type { Diagnosis, DiagnosisContext } from './context.ts'

import { admission, admits } from '../rules/admission.ts'
import { controllerLabel } from '../wording/controllers.ts'

import { acceptedHostnames, hostnameFor } from '../rules/hostnames.ts'

import { routeHostnames } from '../model/route-spec.ts'

import { capitalize, listing, unique } from '../wording/phrasing.ts'
import { describeListener } from '../wording/objects.ts'
import type { Listener } from '../rules/world.ts'

import { alternatives, gatewayListeners, portToo } from './parent-listeners.ts'

export function explainNoMatchingListenerHostname(context: DiagnosisContext): Diagnosis {
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return found
  const { gateway, all, selected } = found
  const { route, world } = context
  const name = found.label
  const hostnames = routeHostnames(route)
  const allowed = selected.filter((l) => admits(admission(l, gateway, route, world)))
  const candidates = allowed.length > 0 ? allowed : selected
  const evidence = [
    hostnames.length === 0
      ? `The ${route.kind} sets no hostnames.`
      : `The ${route.kind}'s hostnames: ${listing(hostnames)}.`
  ]
  const suggestions: string[] = []
  // a Route without hostnames takes the listener's hostname, whatever it is
  const takes = (l: Listener): boolean =>
    hostnames.length === 0 || acceptedHostnames(l.hostname, hostnames).length > 0
  for (const l of candidates) {
    if (l.hostname === undefined) {
      evidence.push(`Listener ${describeListener(l)} sets no hostname, so it matches any hostname.`)
      continue
    }
    if (!takes(l)) {
      evidence.push(
        `Listener ${describeListener(l)} accepts ${l.hostname} only; none of the Route's hostnames match it.`
      )
      suggestions.push(hostnameFor(l.hostname, hostnames[0]))
    }
  }
  const intersecting = candidates.filter(takes)
  if (intersecting.length > 0)
    return specDisagrees(context, name, hostnames, intersecting, evidence)
  const remedies: string[] = []
  const withHostname = candidates.filter((l) => l.hostname !== undefined)
  if (suggestions.length > 0) {
    remedies.push(
      `add a hostname that listener ${listing(withHostname.map((l) => l.name))} accepts to spec.hostnames, e.g. ${listing(unique(suggestions))}`
    )
    if (hostnames[0] !== undefined)
      remedies.push(`change the listener hostname to cover ${hostnames[0]}`)
  }
  const other = alternatives(
    all,
    selected,
    (l) =>
      admits(admission(l, gateway, route, world)) &&
      acceptedHostnames(l.hostname, hostnames).length > 0
  )
  for (const l of other) {
    evidence.push(
      `Listener ${describeListener(l)} would accept ${listing(acceptedHostnames(l.hostname, hostnames))}.`
    )
  }
  if (other[0] !== undefined)
    remedies.push(
      `attach to listener ${other[0].name} instead (set sectionName: ${other[0].name}${portToo(found.ref, other[0])} in the parentRef)`
    )
  const diagnosis: Diagnosis = {
    title: `No listener of ${name} matches the hostnames ${hostnames.length > 0 ? listing(hostnames) : '(none)'}`,
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; or '))}.`
  return diagnosis
}

/**
 * By the spec's intersection rules a selected listener takes the Route's hostnames, yet the controller
 * says none matches: say that the two readings disagree, never "change the listener hostname".
 */
function specDisagrees(
  context: DiagnosisContext,
  gateway: string,
  hostnames: string[],
  intersecting: Listener[],
  evidence: string[]
): Diagnosis {
  const who = controllerLabel(context.finding.controllerName ?? context.parent?.controllerName)
  const described = intersecting.map(
    (l) =>
      `listener ${l.name} (${l.hostname === undefined ? 'no hostname: any' : `hostname ${l.hostname}`})`
  )
  for (const l of intersecting) {
    const taken = acceptedHostnames(l.hostname, hostnames)
    evidence.push(
      `By the Gateway API rules, listener ${describeListener(l)} takes ${hostnames.length > 0 ? listing(taken) : 'the Route, which sets no hostnames'}.`
    )
  }
  const routeNames = hostnames.length > 0 ? listing(hostnames) : '(none: any hostname)'
  return {
    title: `The hostnames ${routeNames} intersect ${listing(described)} of ${gateway} by the spec; ${who} does not accept them`,
    remediation: `route-gate's reading and the controller's disagree: by the spec's hostname rules ${listing(described)} accepts ${routeNames}, but ${who} reports NoMatchingListenerHostname. Read its message and documentation on hostname matching (some implementations take only exact or narrower hostnames), and check whether the status predates a change of the Gateway or the Route.`,
    evidence
  }
}
