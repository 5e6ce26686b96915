// The values the API server writes into a Gateway API object when the file leaves a field out: the
// `default`s of the CRDs' OpenAPI schemas (v1.6.3, standard and experimental channels; every served
// version of a kind has the same ones). A live object that carries a file holds these on top of what
// the file says, and they are no difference. The served schema, when readable, has the last word
// (defaultsOfSchema below reads it); this table is what holds when it is not.
import { isRecord } from './unknown.ts'

/** By path under the object ("spec.rules[].backendRefs[].weight"), the value the server defaults to. */
export type Defaults = ReadonlyMap<string, unknown>

const SERVICE_REF = { group: '', kind: 'Service' }
const GATEWAY_REF = { group: 'gateway.networking.k8s.io', kind: 'Gateway' }
const ROOT_PATH = { type: 'PathPrefix', value: '/' }

function at(prefix: string, values: Record<string, unknown>): [string, unknown][] {
  return Object.entries(values).map(([field, value]) => [`${prefix}.${field}`, value])
}

/** The defaults of a filter (HTTPRoute, GRPCRoute), on a rule or on one of its backendRefs. */
function filters(prefix: string, http: boolean): [string, unknown][] {
  return [
    ...at(`${prefix}.requestMirror.backendRef`, SERVICE_REF),
    ...at(`${prefix}.requestMirror.fraction`, { denominator: 100 }),
    ...(http
      ? [
          ...at(`${prefix}.externalAuth.backendRef`, SERVICE_REF),
          ...at(`${prefix}.cors`, { maxAge: 5 }),
          ...at(`${prefix}.requestRedirect`, { statusCode: 302 })
        ]
      : [])
  ]
}

function routeDefaults(kind: string): [string, unknown][] {
  const http = kind === 'HTTPRoute'
  const grpc = kind === 'GRPCRoute'
  const common: [string, unknown][] = [
    ...at('spec.parentRefs[]', GATEWAY_REF),
    ...at('spec.rules[].backendRefs[]', { ...SERVICE_REF, weight: 1 })
  ]
  if (!http && !grpc) return common
  return [
    ...common,
    ...filters('spec.rules[].filters[]', http),
    ...filters('spec.rules[].backendRefs[].filters[]', http),
    ...at('spec.rules[].matches[].headers[]', { type: 'Exact' }),
    ...at('spec.rules[].sessionPersistence', { type: 'Cookie' }),
    ...at('spec.rules[].sessionPersistence.cookieConfig', { lifetimeType: 'Session' }),
    ...(grpc
      ? at('spec.rules[].matches[].method', { type: 'Exact' })
      : [
          ['spec.rules', [{ matches: [{ path: ROOT_PATH }] }]] as [string, unknown],
          ['spec.rules[].matches', [{ path: ROOT_PATH }]] as [string, unknown],
          ['spec.rules[].matches[].path', ROOT_PATH] as [string, unknown],
          ...at('spec.rules[].matches[].path', ROOT_PATH),
          ...at('spec.rules[].matches[].queryParams[]', { type: 'Exact' })
        ])
  ]
}

function listenerDefaults(): [string, unknown][] {
  const from = { namespaces: { from: 'Same' } }
  return [
    ['spec.listeners[].allowedRoutes', from],
    ['spec.listeners[].allowedRoutes.namespaces', from.namespaces],
    ...at('spec.listeners[].allowedRoutes.namespaces', from.namespaces),
    ...at('spec.listeners[].allowedRoutes.kinds[]', { group: GATEWAY_REF.group }),
    ...at('spec.listeners[].tls.certificateRefs[]', { group: '', kind: 'Secret' }),
    ...at('spec.listeners[].tls', { mode: 'Terminate' })
  ]
}

function gatewayDefaults(): [string, unknown][] {
  const none = { from: 'None' }
  return [
    ...listenerDefaults(),
    ...at('spec.addresses[]', { type: 'IPAddress' }),
    ['spec.allowedListeners.namespaces', none],
    ...at('spec.allowedListeners.namespaces', none),
    ...at('spec.tls.backend.clientCertificateRef', { group: '', kind: 'Secret' }),
    ...at('spec.tls.frontend.default.validation', { mode: 'AllowValidOnly' }),
    ...at('spec.tls.frontend.perPort[].tls.validation', { mode: 'AllowValidOnly' })
  ]
}

/** The Gateway API kinds whose every default is known; a kind not here is compared field by field. */
export const KNOWN_DEFAULTS: ReadonlyMap<string, Defaults> = new Map<string, Defaults>([
  ...['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'].map(
    (kind): [string, Defaults] => [kind, new Map(routeDefaults(kind))]
  ),
  ['Gateway', new Map(gatewayDefaults())],
  ['ListenerSet', new Map([...listenerDefaults(), ...at('spec.parentRef', GATEWAY_REF)])],
  ['ReferenceGrant', new Map()],
  ['GatewayClass', new Map()],
  ['BackendTLSPolicy', new Map()]
])

/**
 * Every `default` under `spec` of one kind's OpenAPI v3 schema (as a CRD holds it, or as the API
 * server serves it at /openapi/v3), by path. Schemas nest at most a few levels; a `$ref` is not
 * followed (the served CRD schemas are inline below metadata).
 */
export function defaultsOfSchema(schema: unknown): Map<string, unknown> {
  const found = new Map<string, unknown>()
  const walk = (node: unknown, path: string, depth: number): void => {
    if (!isRecord(node) || depth > 64) return
    if ('default' in node) found.set(path, node.default)
    if (isRecord(node.properties)) {
      for (const [field, child] of Object.entries(node.properties))
        walk(child, `${path}.${field}`, depth + 1)
    }
    if (node.items !== undefined) walk(node.items, `${path}[]`, depth + 1)
  }
  const spec = isRecord(schema) && isRecord(schema.properties) ? schema.properties.spec : undefined
  walk(spec, 'spec', 0)
  return found
}
