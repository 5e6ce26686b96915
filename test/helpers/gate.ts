// The committed Action run against the test cluster, and what integration tests read back from it.
import { readFile } from 'node:fs/promises'
import { expect } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runAction, type ActionResult } from './action.ts'
import { clusterEnv } from './cluster.ts'
import { expectValidReport } from './schema.ts'

/** dist/index.js with `inputs`, pointed at the test cluster's kubeconfig. */
export function gate(
  inputs: Record<string, string>,
  cwd?: string,
  onStdout?: (stdoutSoFar: string) => void
): Promise<ActionResult> {
  return runAction(inputs, { env: { KUBECONFIG: clusterEnv().kubeconfig }, cwd, onStdout })
}

/** The report file, checked against the schema and against the `report` output. */
export async function reportOf(result: ActionResult): Promise<Report> {
  const file = result.outputs['report-file']
  // a run that ended without its outputs (a crash, a signal) must say how, not fail on readFile
  expect(
    file,
    `no report-file: exit ${result.code}\n${result.stderr}\n${logOf(result)}`
  ).toBeDefined()
  const report = JSON.parse(await readFile(file!, 'utf8')) as Report
  expectValidReport(report)
  expect(JSON.parse(result.outputs.report!)).toMatchObject({ verdict: report.verdict })
  return report
}

/** The step's log without the mask registrations, for assertion messages. */
export const logOf = (result: ActionResult): string =>
  result.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
