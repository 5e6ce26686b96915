// Single objects as the cluster holds them, for check's comparison with the files: the live object a
// document names (managedFields kept: they name its last writer), and the defaults a kind's served
// OpenAPI schema declares.
import { defaultsOfSchema } from '../model/api-defaults.ts'
import type { KubeObject } from '../model/types.ts'
import { isRecord } from '../model/unknown.ts'
import { groupVersionPath, objectPath, splitApiVersion } from './discovery.ts'
import { answeredWith, toClusterError } from './errors.ts'
import { withRetry } from './retry.ts'
import type { Session } from './session.ts'

export type LiveObject = KubeObject | 'absent' | 'forbidden'

export async function readObject(
  session: Session,
  object: KubeObject,
  defaultNamespace: string
): Promise<LiveObject> {
  const resource = await session.discovery.resourceFor(object.apiVersion, object.kind)
  if (!resource) return 'absent'
  const namespace = resource.namespaced
    ? (object.metadata.namespace ?? defaultNamespace)
    : undefined
  const path = objectPath(resource, namespace, object.metadata.name)
  try {
    return await withRetry(() => session.api.request<KubeObject>('GET', path), session.tuning.retry)
  } catch (error) {
    if (answeredWith(error, 404)) return 'absent'
    if (answeredWith(error, 403)) return 'forbidden'
    throw toClusterError(
      error,
      { verb: 'get', resource: resource.plural, namespace },
      session.description
    )
  }
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown> }
}

/**
 * The defaults of `kind` in the served OpenAPI v3 document of its group and version; undefined when
 * the server does not publish it or the account may not read it (the built-in table then holds).
 */
export async function servedDefaults(
  session: Session,
  apiVersion: string,
  kind: string
): Promise<Map<string, unknown> | undefined> {
  const { group, version } = splitApiVersion(apiVersion)
  const path = `/openapi/v3${groupVersionPath(group, version)}`
  const document = await session.api
    .request<OpenApiDocument>('GET', path, { signal: session.closing.signal })
    .catch(() => undefined)
  const schemas = document?.components?.schemas ?? {}
  for (const schema of Object.values(schemas)) {
    const kinds = isRecord(schema) ? schema['x-kubernetes-group-version-kind'] : undefined
    if (!Array.isArray(kinds)) continue
    const named = kinds.some(
      (k) => isRecord(k) && k.group === group && k.version === version && k.kind === kind
    )
    if (named) return defaultsOfSchema(schema)
  }
  return undefined
}
