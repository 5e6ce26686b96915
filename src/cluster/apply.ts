// Server-side apply of manifest documents in dependency order: every document is dry-run first
// (dryRun=All), and only when the server accepts all of them are they applied for real, so a bad
// document applies nothing.
import { InputError } from '../runtime/errors.ts'
import { isRouteObject } from '../model/kinds.ts'
import { EXPERIMENTAL_GROUP, GATEWAY_GROUP } from '../model/types.ts'
import type { KubeObject } from '../model/types.ts'
import type { ManifestDocument } from '../read/manifests.ts'
import type { ApplyOptions, ApplyResult } from './types.ts'
import { objectPath, splitApiVersion, type ResourceInfo } from './discovery.ts'
import { describeFault, toClusterError } from './errors.ts'
import { withRetry } from './retry.ts'
import type { Session } from './session.ts'

export const FIELD_MANAGER = 'route-gate'

// Fields the server owns; apply refuses managedFields and would treat the rest as conflicts or noise.
const SERVER_OWNED_METADATA = [
  'managedFields',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'selfLink'
]

/** The statuses that mean "this document is wrong", not "the cluster is unreachable or refuses us". */
const INVALID_DOCUMENT_STATUSES = new Set([400, 404, 409, 415, 422])

interface ApplyTarget {
  doc: ManifestDocument
  resource: ResourceInfo
  namespace?: string
  name: string
  body: Record<string, unknown>
}

function documentLabel(doc: ManifestDocument, namespace?: string): string {
  const { kind, metadata } = doc.object
  const name = metadata?.name ?? '(no name)'
  return `${doc.file} document ${doc.index} (${kind ?? 'no kind'} ${namespace ? `${namespace}/` : ''}${name})`
}

/** Gateway API objects that Routes lean on: applied after the plain objects, before the Routes. */
const PARENT_KINDS = new Set(['ReferenceGrant', 'GatewayClass', 'Gateway', 'ListenerSet'])

/**
 * Where a document goes in the apply order, the way Helm orders an install: Namespaces, then plain
 * objects (Services, Secrets, ConfigMaps, ...), then ReferenceGrants, GatewayClasses, Gateways and
 * ListenerSets, then Routes. A Route applied before its Service gets BackendNotFound as its first
 * status, which fail-fast would take for the verdict.
 */
export function applyTier(object: KubeObject): number {
  const group = splitApiVersion(
    typeof object.apiVersion === 'string' ? object.apiVersion : ''
  ).group
  if (group === '' && object.kind === 'Namespace') return 0
  if (isRouteObject(object)) return 3
  if (group === GATEWAY_GROUP && PARENT_KINDS.has(object.kind)) return 2
  if (group === EXPERIMENTAL_GROUP && object.kind === 'XListenerSet') return 2
  return 1
}

export function stripServerFields(object: KubeObject): Record<string, unknown> {
  const body: Record<string, unknown> = { ...object }
  delete body.status
  const metadata: Record<string, unknown> = { ...object.metadata }
  for (const field of SERVER_OWNED_METADATA) delete metadata[field]
  return { ...body, metadata }
}

async function resolveTarget(
  session: Session,
  doc: ManifestDocument,
  defaultNamespace: string
): Promise<ApplyTarget> {
  const { apiVersion, kind, metadata } = doc.object
  if (!apiVersion || !kind) {
    throw new InputError(`${documentLabel(doc)}: apiVersion and kind are required`)
  }
  if (!metadata?.name) {
    throw new InputError(`${documentLabel(doc)}: metadata.name is required for server-side apply`)
  }
  const resource = await session.discovery.resourceFor(apiVersion, kind)
  if (!resource) {
    throw new InputError(
      `${documentLabel(doc)}: ${session.description} does not serve kind ${kind} in ${apiVersion} (is its CRD installed?)`
    )
  }
  const namespace = resource.namespaced ? metadata.namespace || defaultNamespace : undefined
  return { doc, resource, namespace, name: metadata.name, body: stripServerFields(doc.object) }
}

async function serverSideApply(
  session: Session,
  target: ApplyTarget,
  dryRun: boolean
): Promise<KubeObject> {
  try {
    return await withRetry(
      () =>
        session.api.request<KubeObject>(
          'PATCH',
          objectPath(target.resource, target.namespace, target.name),
          {
            query: { fieldManager: FIELD_MANAGER, force: true, dryRun: dryRun ? 'All' : undefined },
            body: target.body,
            contentType: 'application/apply-patch+yaml'
          }
        ),
      session.tuning.retry
    )
  } catch (error) {
    const fault = describeFault(error)
    if (fault.status !== undefined && INVALID_DOCUMENT_STATUSES.has(fault.status)) {
      throw new InputError(`${documentLabel(target.doc, target.namespace)}: ${fault.message}`)
    }
    throw toClusterError(
      error,
      { verb: 'patch', resource: target.resource.plural, namespace: target.namespace },
      session.description
    )
  }
}

export async function applyDocuments(
  session: Session,
  docs: ManifestDocument[],
  options: ApplyOptions
): Promise<ApplyResult> {
  const targets: ApplyTarget[] = []
  const defaultNamespace = options.namespace ?? session.defaultNamespace
  // a stable sort: within a tier, documents keep the order of their files
  const ordered = [...docs].sort((a, b) => applyTier(a.object) - applyTier(b.object))
  for (const doc of ordered) targets.push(await resolveTarget(session, doc, defaultNamespace))
  const checked: ApplyResult['applied'] = []
  for (const target of targets) {
    checked.push({ doc: target.doc, object: await serverSideApply(session, target, true) })
  }
  if (options.dryRun) return { applied: checked }
  const applied: ApplyResult['applied'] = []
  for (const target of targets) {
    applied.push({ doc: target.doc, object: await serverSideApply(session, target, false) })
  }
  return { applied }
}
