// The report as YAML (`-o yaml`): the same object as the JSON rendering, for kubectl habits. Its
// text reaches stdout through the same workflow-command neutralizing as every rendering.
import { stringify } from 'yaml'
import type { AnyReport } from '../model/types.ts'

export function renderYaml(report: AnyReport): string {
  return stringify(report, { lineWidth: 0 }).trimEnd()
}
