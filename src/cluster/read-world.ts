// Reads what diagnosis needs around the Routes. A forbidden read is not fatal: it becomes a sentence
// in World.unreadable ("services in namespace shop: forbidden (list)") and the kind stays empty, so a
// narrowly scoped CI account still gets a verdict.
import { EXPERIMENTAL_GROUP } from '../model/types.ts'
import type { KubeObject, World } from '../model/types.ts'
import { groupVersionPath, type ResourceInfo } from './discovery.ts'
import { answeredWith, describeOperation, toClusterError, type Operation } from './errors.ts'
import { withRetry } from './retry.ts'
import type { Session } from './session.ts'

const NAMESPACES: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false
}
const SERVICES: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true
}

const FORBIDDEN = Symbol('forbidden')
type Forbidden = typeof FORBIDDEN

interface ListResponse {
  items?: Record<string, unknown>[]
}

function apiVersionOf(resource: ResourceInfo): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`
}

function unreadableSentence(op: Operation): string {
  const what = describeOperation(op).slice(op.verb.length + 1)
  return `${what}: forbidden (${op.verb})`
}

class WorldReader {
  readonly unreadable: string[] = []

  constructor(private readonly session: Session) {}

  /**
   * The request's result, undefined when not found, or FORBIDDEN (recorded in unreadable unless the
   * caller has a fallback); other failures end the read.
   */
  private async read<T>(
    op: Operation,
    path: string,
    record = true
  ): Promise<T | Forbidden | undefined> {
    try {
      return await withRetry(
        () => this.session.api.request<T>('GET', path),
        this.session.tuning.retry
      )
    } catch (error) {
      if (answeredWith(error, 403)) {
        if (record) this.unreadable.push(unreadableSentence(op))
        return FORBIDDEN
      }
      if (answeredWith(error, 404)) return undefined
      throw toClusterError(error, op, this.session.description)
    }
  }

  /** namespace: null for all namespaces (or a cluster-scoped kind) */
  async list(
    resource: ResourceInfo,
    namespace: string | null,
    record = true
  ): Promise<KubeObject[] | Forbidden> {
    const scope = namespace === null ? '' : `/namespaces/${encodeURIComponent(namespace)}`
    const op: Operation = {
      verb: 'list',
      resource: resource.plural,
      namespace: resource.namespaced ? namespace : undefined
    }
    const path = `${groupVersionPath(resource.group, resource.version)}${scope}/${resource.plural}`
    const list = await this.read<ListResponse>(op, path, record)
    if (list === FORBIDDEN) return FORBIDDEN
    const apiVersion = apiVersionOf(resource)
    return (list?.items ?? []).map(
      (item) => ({ ...item, apiVersion, kind: resource.kind }) as unknown as KubeObject
    )
  }

  async listEach(resource: ResourceInfo | undefined, namespaces: string[]): Promise<KubeObject[]> {
    if (!resource) return []
    const lists = await Promise.all(namespaces.map((namespace) => this.list(resource, namespace)))
    return lists.flatMap((list) => (list === FORBIDDEN ? [] : list))
  }

  async listAllOrEach(
    resource: ResourceInfo | undefined,
    namespaces: string[]
  ): Promise<KubeObject[]> {
    if (!resource) return []
    const all = await this.list(resource, null)
    return all === FORBIDDEN ? this.listEach(resource, namespaces) : all
  }

  /** Namespaces by list, or one by one when listing is forbidden. */
  async namespaces(names: string[]): Promise<KubeObject[]> {
    if (names.length === 0) return []
    // Listing namespaces needs a ClusterRole; getting the few we need is a complete fallback.
    const all = await this.list(NAMESPACES, null, false)
    if (all !== FORBIDDEN) return all
    const found = await Promise.all(
      names.map((name) =>
        this.read<KubeObject>(
          { verb: 'get', resource: `namespace ${name}` },
          `/api/v1/namespaces/${encodeURIComponent(name)}`
        )
      )
    )
    return found.flatMap((namespace) =>
      namespace === FORBIDDEN || namespace === undefined
        ? []
        : [{ ...namespace, apiVersion: 'v1', kind: 'Namespace' }]
    )
  }
}

/**
 * ListenerSets decide the owner of a ListenerSet parent, like Gateways: read alongside them, in both
 * groups (the standard ListenerSet and the older XListenerSet), where the server serves them.
 */
async function readListenerSets(
  session: Session,
  reader: WorldReader,
  gateway: Map<string, ResourceInfo>,
  namespaces: string[]
): Promise<KubeObject[]> {
  const experimental = await session.discovery.groupResources(EXPERIMENTAL_GROUP)
  const lists = await Promise.all([
    reader.listAllOrEach(gateway.get('ListenerSet'), namespaces),
    reader.listAllOrEach(experimental.get('XListenerSet'), namespaces)
  ])
  return lists.flat()
}

/**
 * namespaces: those whose Namespaces, Services and ReferenceGrants to read, or 'all' for a dump of
 * the whole cluster (cluster-wide lists, falling back to one list per namespace where forbidden).
 */
export async function readWorld(session: Session, namespaces: string[] | 'all'): Promise<World> {
  const gateway = await session.discovery.gatewayResources()
  const reader = new WorldReader(session)
  const gatewayClass = gateway.get('GatewayClass')
  let namespaceList: KubeObject[] | Forbidden | undefined
  if (namespaces === 'all') namespaceList = await reader.list(NAMESPACES, null)
  const names =
    namespaces !== 'all'
      ? namespaces
      : namespaceList === FORBIDDEN || namespaceList === undefined
        ? []
        : namespaceList.map((n) => n.metadata.name)
  const namespaced = (resource: ResourceInfo | undefined): Promise<KubeObject[]> =>
    namespaces === 'all' ? reader.listAllOrEach(resource, names) : reader.listEach(resource, names)
  const [
    gatewayClasses,
    gateways,
    listenerSets,
    namespaceObjects,
    services,
    referenceGrants,
    policies
  ] = await Promise.all([
    gatewayClass ? reader.list(gatewayClass, null) : [],
    reader.listAllOrEach(gateway.get('Gateway'), names),
    readListenerSets(session, reader, gateway, names),
    namespaces === 'all'
      ? namespaceList === FORBIDDEN || namespaceList === undefined
        ? []
        : namespaceList
      : reader.namespaces(names),
    namespaced(SERVICES),
    namespaced(gateway.get('ReferenceGrant')),
    // a dump's only: predict reads which Services a BackendTLSPolicy covers
    namespaces === 'all' ? namespaced(gateway.get('BackendTLSPolicy')) : []
  ])
  const referenceGrant = gateway.get('ReferenceGrant')
  return {
    ...(referenceGrant ? { served: { ReferenceGrant: apiVersionOf(referenceGrant) } } : {}),
    gatewayClasses: gatewayClasses === FORBIDDEN ? [] : gatewayClasses,
    gateways,
    listenerSets,
    namespaces: namespaceObjects,
    services,
    referenceGrants,
    ...(namespaces === 'all' ? { backendTLSPolicies: policies } : {}),
    unreadable: reader.unreadable
  }
}
