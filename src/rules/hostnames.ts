// Hostname intersection as the Gateway API defines it: a leading `*.` label matches one or more
// labels; an absent hostname on either side matches everything.

function covers(wildcard: string, name: string): boolean {
  return name.endsWith(wildcard.slice(1)) && name.length > wildcard.length - 1
}

export function hostnamesIntersect(a: string, b: string): boolean {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  const xWild = x.startsWith('*.')
  const yWild = y.startsWith('*.')
  if (xWild && yWild) return x.endsWith(y.slice(1)) || y.endsWith(x.slice(1))
  if (xWild) return covers(x, y)
  if (yWild) return covers(y, x)
  return x === y
}

/** The Route hostnames a listener accepts; every one of them when either side sets none. */
export function acceptedHostnames(
  listenerHostname: string | undefined,
  routeHostnames: string[]
): string[] {
  if (listenerHostname === undefined || routeHostnames.length === 0) return routeHostnames
  return routeHostnames.filter((h) => hostnamesIntersect(h, listenerHostname))
}

/**
 * A hostname the listener would accept, made from the Route's own: the listener's exact hostname, or
 * the Route hostname's first label under the listener's wildcard domain.
 */
export function hostnameFor(listenerHostname: string, routeHostname: string | undefined): string {
  if (!listenerHostname.startsWith('*.')) return listenerHostname
  const first = routeHostname?.replace(/^\*\./, '').split('.')[0] || 'www'
  return `${first}${listenerHostname.slice(1)}`
}
