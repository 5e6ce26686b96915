// Fixes as data: the object a fix changes, whole, as it should read afterwards. Proof (predict/prove.ts)
// applies it to a copy of the world; the renderers print it. Nothing here decides whether it holds.
import type { Fix, FixTarget, KubeObject } from '../model/types.ts'

// set by the API server, or by kubectl apply: an object written back with them is refused or stale
const SERVER_SET = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
  'ownerReferences'
] as const
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/** The object as a user would write it: no status, no server-set metadata. */
export function writableObject(object: KubeObject): KubeObject {
  const { status: _status, ...rest } = object
  const metadata: Record<string, unknown> = { ...object.metadata }
  for (const field of SERVER_SET) delete metadata[field]
  const annotations = { ...object.metadata.annotations }
  delete annotations[LAST_APPLIED]
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations
  else delete metadata.annotations
  return { ...rest, metadata: metadata as KubeObject['metadata'] }
}

export function targetOf(object: KubeObject): FixTarget {
  const { namespace, name } = object.metadata
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(namespace === undefined ? {} : { namespace }),
    name
  }
}

/** `after` is `before` with the change made; `command` makes the same change in a live cluster. */
export function patchFix(after: KubeObject, command?: string): Fix {
  return {
    action: 'patch',
    target: targetOf(after),
    object: writableObject(after),
    ...(command === undefined ? {} : { command })
  }
}

export function createFix(object: KubeObject): Fix {
  return { action: 'create', target: targetOf(object), object: writableObject(object) }
}

/** A change route-gate can only word as a command: the object itself is not in the source. */
export function commandFix(target: FixTarget, command: string): Fix {
  return { action: 'command', target, command }
}
