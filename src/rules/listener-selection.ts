// Which listeners a parentRef selects and which Route kinds a listener takes (gateway-api-status §8).
import type { Listener, ListenerStatus } from './world.ts'
import { GATEWAY_GROUP } from '../model/types.ts'
import type { ParentRef } from '../model/types.ts'

/** sectionName picks the listener of that name, port every listener on that port; both must match. */
export function selectListeners(listeners: readonly Listener[], ref: ParentRef): Listener[] {
  return listeners.filter(
    (l) =>
      (ref.sectionName === undefined || l.name === ref.sectionName) &&
      (ref.port === undefined || l.port === ref.port)
  )
}

/** The kinds each core protocol supports; other protocols are implementation-specific. */
const PROTOCOL_KINDS: Record<string, string[]> = {
  HTTP: ['HTTPRoute', 'GRPCRoute'],
  HTTPS: ['HTTPRoute', 'GRPCRoute'],
  TLS: ['TLSRoute', 'TCPRoute'],
  TCP: ['TCPRoute'],
  UDP: ['UDPRoute']
}

export function protocolKinds(protocol: string | undefined): string[] | undefined {
  return protocol === undefined ? undefined : PROTOCOL_KINDS[protocol]
}

const routeKinds = (kinds: { group: string; kind: string }[]): string[] =>
  kinds.filter((k) => k.group === GATEWAY_GROUP).map((k) => k.kind)

/** The Route kinds a listener's spec admits: allowedRoutes.kinds, else its protocol's kinds. */
export function specKinds(listener: Listener): string[] | undefined {
  return listener.kinds.length > 0 ? routeKinds(listener.kinds) : protocolKinds(listener.protocol)
}

/**
 * The Route kinds a listener takes: what the controller wrote in supportedKinds, else what its spec
 * admits; undefined when nothing says (a vendor protocol without status).
 */
export function listenerKinds(
  listener: Listener,
  status: ListenerStatus | undefined
): string[] | undefined {
  return status?.supportedKinds ? routeKinds(status.supportedKinds) : specKinds(listener)
}

/** Whether a listener can take a Route of this kind (true when nothing says: a vendor protocol). */
export function takesKind(
  listener: Listener,
  statuses: readonly ListenerStatus[],
  kind: string
): boolean {
  const status = statuses.find((s) => s.name === listener.name)
  return listenerKinds(listener, status)?.includes(kind) ?? true
}
