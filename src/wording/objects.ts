// The World's objects and blind spots as the evidence names them.
import type { BlindSpot, Listener, Resource, ServicePort } from '../rules/world.ts'
import { blindSpotsOf } from '../rules/world.ts'
import type { World } from '../model/types.ts'

const LABELS: Record<Resource, string> = {
  gateways: 'Gateways',
  gatewayclasses: 'GatewayClasses',
  namespaces: 'Namespaces',
  services: 'Services',
  referencegrants: 'ReferenceGrants',
  listenersets: 'ListenerSets'
}

function describeBlindSpot(spot: BlindSpot): string {
  return 'unreadable' in spot
    ? `Could not read ${spot.unreadable}.`
    : `The source holds no ${LABELS[spot.absent]}, so they could not be checked.`
}

/**
 * Sentences saying why a lookup of this kind may be incomplete; empty when the World holds every
 * object of that kind, so an absent object really is absent.
 */
export function blindSpots(world: World, resource: Resource, namespace?: string): string[] {
  return blindSpotsOf(world, resource, namespace).map(describeBlindSpot)
}

/** "http (port 80, HTTP, hostname *.example.com)" */
export function describeListener(listener: Listener): string {
  const parts = [
    listener.port === undefined ? undefined : `port ${listener.port}`,
    listener.protocol,
    listener.hostname === undefined ? undefined : `hostname ${listener.hostname}`
  ].filter((p) => p !== undefined)
  return parts.length === 0 ? listener.name : `${listener.name} (${parts.join(', ')})`
}

/** "80 (http)", "9090" */
export function describeServicePort(port: ServicePort): string {
  return port.name ? `${port.port} (${port.name})` : String(port.port)
}
