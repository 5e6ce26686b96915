// `route-gate dump`: the cluster objects predict needs, written as one kubectl-style List that
// `check --from-file` and `predict --from-file` both read. The first line is a comment carrying when
// and where the dump was taken and which lists were forbidden, so predict can state its age and
// what it lacks without parsing the whole file twice.
import path from 'node:path'
import { stringify } from 'yaml'
import type { KubeClusterClient } from './cluster/client.ts'
import type { ClusterDump } from './cluster/types.ts'
import { InputError } from './errors.ts'
import { writeUserFile } from './files.ts'
import type { Settings } from './inputs.ts'
import type { KubeObject } from './model/types.ts'

export const DUMP_HEADER_PREFIX = '# route-gate dump '

export interface DumpHeader {
  /** ISO time the lists were read */
  takenAt: string
  /** the API server, without credentials */
  cluster: string
  context: string
  /** lists the account could not read ("services in namespace shop: forbidden (list)") */
  forbidden: string[]
  /** the kinds listed completely: every list of them was allowed */
  complete: string[]
}

export function renderDump(dump: ClusterDump, header: DumpHeader): string {
  const list = {
    apiVersion: 'v1',
    kind: 'List',
    metadata: {
      annotations: {
        'route-gate.dev/taken-at': header.takenAt,
        'route-gate.dev/cluster': header.cluster,
        'route-gate.dev/context': header.context
      }
    },
    items: dump.objects satisfies KubeObject[]
  }
  return `${DUMP_HEADER_PREFIX}${JSON.stringify(header)}\n${stringify(list, { lineWidth: 0 })}`
}

/** The header of a dump written by `route-gate dump`, or undefined for any other file. */
export function readDumpHeader(text: string, file: string): DumpHeader | undefined {
  if (!text.startsWith(DUMP_HEADER_PREFIX)) return undefined
  const end = text.indexOf('\n')
  const json = text.slice(DUMP_HEADER_PREFIX.length, end === -1 ? undefined : end)
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    throw new InputError(`${file} line 1: the route-gate dump header is not valid JSON`)
  }
  const h = parsed as Partial<DumpHeader> | null
  if (
    typeof h?.takenAt !== 'string' ||
    Number.isNaN(Date.parse(h.takenAt)) ||
    typeof h.cluster !== 'string' ||
    typeof h.context !== 'string' ||
    !Array.isArray(h.forbidden) ||
    !h.forbidden.every((f) => typeof f === 'string') ||
    !Array.isArray(h.complete) ||
    !h.complete.every((k) => typeof k === 'string')
  ) {
    throw new InputError(
      `${file} line 1: the route-gate dump header needs takenAt (a time), cluster, context, forbidden and complete`
    )
  }
  return {
    takenAt: h.takenAt,
    cluster: h.cluster,
    context: h.context,
    forbidden: h.forbidden,
    complete: h.complete
  }
}

export interface DumpDeps {
  connect: (settings: Settings) => Promise<KubeClusterClient>
  cwd: string
  now: () => number
  stdout: NodeJS.WritableStream
}

/** Reads the cluster read-only and writes the dump to settings.outputFile (`-`: stdout). */
export async function runDump(settings: Settings, deps: DumpDeps): Promise<void> {
  const cluster = await deps.connect(settings)
  try {
    // taken before the lists: the dump is at least this old, never younger than it says
    const takenAt = new Date(deps.now()).toISOString()
    const dump = await cluster.readDump()
    const text = renderDump(dump, {
      takenAt,
      cluster: cluster.origin.server,
      context: cluster.origin.context,
      forbidden: dump.forbidden,
      complete: dump.complete
    })
    if (settings.outputFile === '-') deps.stdout.write(text)
    else await writeUserFile(path.resolve(deps.cwd, settings.outputFile!), text, 'output-file')
  } finally {
    cluster.close()
  }
}
