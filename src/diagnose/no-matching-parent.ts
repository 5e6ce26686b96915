// Evidence for NoMatchingParent: the listener names and ports that exist, and a listener its
// controller refused.
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { takesKind } from '../rules/listener-selection.ts'
import { nearestNames, oneOf } from '../model/nearest.ts'
import { describeRefusals } from '../wording/refusals.ts'
import { gatewayName } from './parents.ts'
import { capitalize, listing, unique } from '../wording/phrasing.ts'

import { blindSpots, describeListener, describeServicePort } from '../wording/objects.ts'

import { findService, listenerStatusesOf, servicePortsOf } from '../rules/world.ts'
import { nameIndexIn } from '../model/object-index.ts'
import type { ParentRef, World } from '../model/types.ts'
import { stringField } from '../model/unknown.ts'

import { gatewayListeners, refusalFixes, refusalsOf, writerOf } from './parent-listeners.ts'

export function explainNoMatchingParent(context: DiagnosisContext): Diagnosis {
  const ref = context.parent?.parentRef
  if (!ref) return { evidence: [] }
  if (ref.kind === 'Service') return serviceParentPorts(ref, context.world)
  const found = gatewayListeners(context)
  if (!('gateway' in found)) return found
  const { all } = found
  const name = found.label
  const evidence = [
    all.length === 0
      ? `${name} has no listeners.`
      : `${name} has listeners: ${listing(all.map(describeListener))}.`
  ]
  // the parentRef names a listener that exists, which its controller refused: that is the cause
  const refusals = refusalsOf(found.selected, found.gateway, context)
  if (refusals.length > 0) {
    return {
      title: `${name}: ${describeRefusals(refusals, writerOf(context))}`,
      remediation: `${capitalize(refusalFixes(refusals, context).join('; and '))}.`,
      evidence
    }
  }
  const remedies: string[] = []
  const byName =
    ref.sectionName === undefined ? undefined : all.find((l) => l.name === ref.sectionName)
  if (ref.sectionName !== undefined && !byName) {
    const statuses = listenerStatusesOf(found.gateway)
    const compatible = all.filter((l) => takesKind(l, statuses, context.route.kind))
    const nearest = nearestNames(
      ref.sectionName,
      (compatible.length > 0 ? compatible : all).map((l) => l.name)
    )
    evidence.push(`No listener is named ${ref.sectionName}.`)
    remedies.push(
      nearest.length > 0
        ? `set sectionName to ${oneOf(nearest)} (the nearest listener name)`
        : `set sectionName to one of the listener names: ${listing(all.map((l) => l.name))}`
    )
  }
  if (ref.port !== undefined) {
    const ports = unique(all.flatMap((l) => (l.port === undefined ? [] : [l.port])))
    if (byName && byName.port !== ref.port) {
      evidence.push(
        `Listener ${byName.name} listens on port ${byName.port ?? '(none)'}, not ${ref.port}.`
      )
      remedies.push(`set port to ${byName.port ?? ''} or drop it`)
    } else if (!ports.includes(ref.port)) {
      evidence.push(`No listener listens on port ${ref.port}.`)
      remedies.push(`set port to one of the listener ports: ${listing(ports.map(String))}`)
    }
  }
  const diagnosis: Diagnosis = {
    title: `The parentRef ${[ref.sectionName === undefined ? '' : `sectionName ${ref.sectionName}`, ref.port === undefined ? '' : `port ${ref.port}`].filter(Boolean).join(' and ') || 'to ' + name} matches no listener of ${name}`,
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; and '))}.`
  return diagnosis
}

function serviceParentPorts(ref: ParentRef, world: World): Diagnosis {
  const service = findService(world, ref.namespace, ref.name)
  const name = gatewayName(ref)
  if (!service) {
    const blind = blindSpots(world, 'services', ref.namespace)
    if (blind.length > 0) return { evidence: blind }
    const nearest = nameIndexIn(world.services, ref.namespace).nearest(ref.name)
    return {
      title: `Service ${name} named by the parentRef does not exist`,
      remediation:
        nearest.length > 0
          ? `Set the parentRef name to ${oneOf(nearest)} (the nearest Service), or create Service ${name}.`
          : `Create Service ${name} or fix the parentRef name.`,
      evidence: [`Service ${name} does not exist.`]
    }
  }
  const ports = servicePortsOf(service)
  const evidence = [`Service ${name} has ports ${listing(ports.map(describeServicePort))}.`]
  if (stringField(service.spec, 'clusterIP') === 'None') {
    evidence.push(
      `Service ${name} is headless (clusterIP: None); meshes accept only ClusterIP Services as parents.`
    )
  }
  const remedies: string[] = []
  if (ref.sectionName !== undefined && !ports.some((p) => p.name === ref.sectionName)) {
    const names = ports.flatMap((p) => (p.name ? [p.name] : []))
    remedies.push(
      `set sectionName to a port name of the Service${names.length > 0 ? `: ${listing(names)}` : ' (its ports have no names)'}`
    )
  }
  if (ref.port !== undefined && !ports.some((p) => p.port === ref.port)) {
    remedies.push(`set port to one of ${listing(ports.map((p) => String(p.port)))}`)
  }
  const diagnosis: Diagnosis = {
    title: `The parentRef matches no port of Service ${name}`,
    evidence
  }
  if (remedies.length > 0) diagnosis.remediation = `${capitalize(remedies.join('; and '))}.`
  return diagnosis
}
