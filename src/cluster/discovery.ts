// API discovery: which version of each Gateway API kind the server serves, and how any
// apiVersion/kind maps to a resource path (plural, namespaced) for apply.
import { ClusterError } from '../runtime/errors.ts'
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP } from '../model/types.ts'
import { answeredWith, toClusterError } from './errors.ts'
import type { ApiRequester } from './request.ts'
import { withRetry, type RetryTuning } from './retry.ts'

export interface ResourceInfo {
  /** '' for the core group */
  group: string
  version: string
  kind: string
  plural: string
  namespaced: boolean
}

interface ApiGroup {
  versions?: { version: string }[]
}

interface ApiResourceList {
  resources?: { name: string; kind: string; namespaced: boolean }[]
}

/** Kubernetes version priority: GA before beta before alpha, higher numbers first. */
export function versionRank(version: string): number {
  const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version)
  if (!match) return -1
  const major = Number(match[1])
  const stage = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0
  const minor = match[3] === undefined ? 0 : Number(match[3])
  return stage * 1e6 + major * 1e3 + minor
}

export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`
}

/** The path of one object of `resource`; `namespace` only for namespaced resources. */
export function objectPath(
  resource: ResourceInfo,
  namespace: string | undefined,
  name: string
): string {
  const scope = namespace === undefined ? '' : `/namespaces/${encodeURIComponent(namespace)}`
  return `${groupVersionPath(resource.group, resource.version)}${scope}/${resource.plural}/${encodeURIComponent(name)}`
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/')
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) }
}

export class Discovery {
  private readonly groupVersions = new Map<string, Promise<ResourceInfo[] | undefined>>()
  private gatewayKinds: Promise<Map<string, ResourceInfo>> | undefined
  private readonly groups = new Map<string, Promise<Map<string, ResourceInfo> | undefined>>()

  constructor(
    private readonly api: ApiRequester,
    private readonly retry: RetryTuning,
    private readonly server: string
  ) {}

  /** The resources one group/version serves (subresources left out); undefined when not served. */
  resources(group: string, version: string): Promise<ResourceInfo[] | undefined> {
    const key = `${group}/${version}`
    let cached = this.groupVersions.get(key)
    if (!cached) {
      cached = this.fetchResources(group, version)
      // A failed lookup must not stick: the next caller asks again.
      cached.catch(() => this.groupVersions.delete(key))
      this.groupVersions.set(key, cached)
    }
    return cached
  }

  async resourceFor(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    const { group, version } = splitApiVersion(apiVersion)
    return (await this.resources(group, version))?.find((resource) => resource.kind === kind)
  }

  /** For each kind of the Gateway API group, the resource at its preferred served version. */
  gatewayResources(): Promise<Map<string, ResourceInfo>> {
    if (!this.gatewayKinds) {
      this.gatewayKinds = this.fetchGatewayResources()
      this.gatewayKinds.catch(() => (this.gatewayKinds = undefined))
      // The World read needs the experimental group too (XListenerSet): asked as soon as the server
      // has answered for the Gateway API group, it overlaps what the gate does before that read. Only
      // then, so that an unreachable server is named by the request that matters. A failure is not
      // cached and is met again by the World read.
      this.gatewayKinds.then(() => this.groupResources(EXPERIMENTAL_GROUP)).catch(() => {})
    }
    return this.gatewayKinds
  }

  /** The same for any API group; an empty map when the server does not serve the group. */
  async groupResources(group: string): Promise<Map<string, ResourceInfo>> {
    let cached = this.groups.get(group)
    if (!cached) {
      cached = this.fetchGroupResources(group)
      cached.catch(() => this.groups.delete(group))
      this.groups.set(group, cached)
    }
    return (await cached) ?? new Map()
  }

  private async fetchResources(
    group: string,
    version: string
  ): Promise<ResourceInfo[] | undefined> {
    const path = groupVersionPath(group, version)
    try {
      const list = await withRetry(() => this.api.request<ApiResourceList>('GET', path), this.retry)
      return (list.resources ?? [])
        .filter((resource) => !resource.name.includes('/'))
        .map((resource) => ({
          group,
          version,
          kind: resource.kind,
          plural: resource.name,
          namespaced: resource.namespaced
        }))
    } catch (error) {
      if (answeredWith(error, 404)) return undefined
      throw toClusterError(error, { verb: 'get', resource: `discovery ${path}` }, this.server)
    }
  }

  private async fetchGatewayResources(): Promise<Map<string, ResourceInfo>> {
    const byKind = await this.fetchGroupResources(GATEWAY_GROUP)
    if (!byKind) {
      throw new ClusterError(
        `Gateway API CRDs not installed on ${this.server}: the API group ${GATEWAY_GROUP} is not served`
      )
    }
    return byKind
  }

  /** undefined when the group is not served */
  private async fetchGroupResources(group: string): Promise<Map<string, ResourceInfo> | undefined> {
    const path = `/apis/${group}`
    let served: ApiGroup
    try {
      served = await withRetry(() => this.api.request<ApiGroup>('GET', path), this.retry)
    } catch (error) {
      if (answeredWith(error, 404)) return undefined
      throw toClusterError(error, { verb: 'get', resource: `discovery ${path}` }, this.server)
    }
    const versions = (served.versions ?? [])
      .map((entry) => entry.version)
      .sort((a, b) => versionRank(b) - versionRank(a))
    const lists = await Promise.all(versions.map((version) => this.resources(group, version)))
    const byKind = new Map<string, ResourceInfo>()
    // Versions are in preference order, so the first one serving a kind wins.
    for (const resource of lists.flatMap((list) => list ?? [])) {
      if (!byKind.has(resource.kind)) byKind.set(resource.kind, resource)
    }
    return byKind
  }
}
