// `route-gate predict`: the pull request's manifests, the cluster objects they land among (a dump
// or the live cluster, read-only) and the pure prediction between them. Reading is all this does;
// the rules live in src/predict.
import type { ClusterClient } from '../cluster/types.ts'
import type { ManifestDocument } from '../read/manifests.ts'
import { readDumpHeader } from '../read/dump-header.ts'
import { DeadlineError, InputError } from '../runtime/errors.ts'
import { formatDuration } from '../model/plain-text.ts'
import type { Settings } from '../inputs/settings.ts'
import {
  expandManifestPaths,
  loadManifests,
  readingFromFile,
  readManifestFile
} from '../read/manifests.ts'
import { predict, type PredictInput } from '../predict/index.ts'
import { kindsHeld } from '../predict/overlay.ts'
import type { PredictReport } from '../model/types.ts'
import { explainRoute } from '../diagnose/explain.ts'
import { TOOL_VERSION } from '../runtime/version.ts'

export interface PredictDeps {
  connect: (settings: Settings) => Promise<ClusterClient>
  cwd: string
  now: () => number
}

type Source = Pick<PredictInput, 'cluster' | 'source'>

export async function runPredict(settings: Settings, deps: PredictDeps): Promise<PredictReport> {
  const deadline = deps.now() + settings.timeoutMs
  // the pull request's own files first: a mistake in them is exit 2 before any cluster is asked
  const manifests = await loadManifests(
    await expandManifestPaths(settings.manifests, deps.cwd),
    deps.cwd
  )
  const { fromFile } = settings
  const source =
    fromFile === undefined
      ? await liveSource(settings, deps)
      : await readingFromFile(() => dumpSource(fromFile, deps.cwd, settings.partialDump))
  return predict({
    ...source,
    manifests,
    now: new Date(deps.now()),
    settings,
    toolVersion: TOOL_VERSION,
    explain: explainRoute,
    checkpoint: ({ stage, done, of }) => {
      if (deps.now() <= deadline) return
      throw new DeadlineError(
        `predict did not finish within its timeout of ${settings.timeoutMs < 1000 ? `${settings.timeoutMs}ms` : formatDuration(settings.timeoutMs)} (${stage === 'calibrating' ? `calibrating against the cluster's Routes: ${done} of ${of}` : `${done} of ${of} Routes predicted`}): raise timeout, or predict fewer manifests at once`
      )
    }
  })
}

/** The live cluster, read as `route-gate dump` reads it: get and list only. */
async function liveSource(settings: Settings, deps: PredictDeps): Promise<Source> {
  const cluster = await deps.connect(settings)
  try {
    const takenAt = new Date(deps.now()).toISOString()
    const dump = await cluster.readDump()
    return {
      cluster: dump.objects.map((object) => ({ file: 'cluster', index: 0, line: 0, object })),
      source: {
        kind: 'live',
        takenAt,
        cluster: cluster.origin.server,
        context: cluster.origin.context,
        complete: dump.complete
      }
    }
  } finally {
    cluster.close()
  }
}

/**
 * A dump file. One from `route-gate dump` says in its header which kinds it lists completely. Any
 * other (`kubectl get … -A -o yaml`) is taken to list in full each kind it holds (kindsHeld), or,
 * declared partial, none: then an object it lacks is unknown rather than absent.
 */
async function dumpSource(entry: string, cwd: string, partial: boolean): Promise<Source> {
  const files = await expandManifestPaths([entry], cwd, 'from-file')
  const cluster: ManifestDocument[] = []
  let header: ReturnType<typeof readDumpHeader>
  for (const file of files) {
    const { text, shown, docs } = await readManifestFile(file, cwd)
    header ??= readDumpHeader(text, shown)
    cluster.push(...docs)
  }
  if (header === undefined) {
    const assumed = partial ? [] : kindsHeld(cluster.map((d) => d.object))
    return {
      cluster,
      source: {
        kind: 'dump',
        complete: assumed,
        ...(partial ? { partial: true } : { assumedComplete: assumed })
      }
    }
  }
  if (files.length > 1) {
    throw new InputError(
      `from-file "${entry}": a route-gate dump is one file; it names ${files.length} files`
    )
  }
  return {
    cluster,
    source: {
      kind: 'dump',
      takenAt: header.takenAt,
      cluster: header.cluster,
      context: header.context,
      complete: header.complete
    }
  }
}
