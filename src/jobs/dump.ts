// `route-gate dump`: the cluster objects predict needs, written as one kubectl-style List that
// `check --from-file` and `predict --from-file` both read. The first line is a comment carrying when
// and where the dump was taken and which lists were forbidden, so predict can state its age and
// what it lacks without parsing the whole file twice.
import { stringify } from 'yaml'
import type { KubeClusterClient } from '../cluster/client.ts'
import type { ClusterDump } from '../cluster/types.ts'
import { writeUserFile } from '../read/files.ts'
import type { Settings } from '../inputs/settings.ts'
import type { KubeObject } from '../model/types.ts'
import { DUMP_HEADER_PREFIX, type DumpHeader } from '../read/dump-header.ts'

export { readDumpHeader, type DumpHeader } from '../read/dump-header.ts'

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
    else await writeUserFile(settings.outputFile!, text, 'output-file', deps.cwd)
  } finally {
    cluster.close()
  }
}
