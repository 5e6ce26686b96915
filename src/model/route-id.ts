/** "HTTPRoute shop/web": how a Route is named in notes, logs and renderings. */
export function routeId(r: { kind: string; namespace: string; name: string }): string {
  return `${r.kind} ${r.namespace}/${r.name}`
}
