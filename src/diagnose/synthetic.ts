// Evidence for route-gate's own reasons about status that is old, incomplete or absent
// (StaleStatus, ConditionMissing, ConditionUnknown, NoParentRefs).
import { controllerLabel } from './controllers.ts'
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { describeCondition, formatDuration, listing } from './text.ts'
import { yamlScalar } from './yaml.ts'

export function explainStaleStatus(context: DiagnosisContext): Diagnosis {
  const { finding, now } = context
  const who = controllerLabel(finding.controllerName ?? context.parent?.controllerName)
  const evidence: string[] = []
  const { generation, observedGeneration } = finding
  const what = finding.condition ?? 'The status'
  if (generation !== undefined && observedGeneration !== undefined) {
    evidence.push(
      `${what} was written for generation ${observedGeneration}; the Route is at generation ${generation}.`
    )
  }
  let since = ''
  const changed = finding.lastTransitionTime ? Date.parse(finding.lastTransitionTime) : NaN
  if (!Number.isNaN(changed)) {
    const age = now ? ` (${formatDuration(now.getTime() - changed)} ago)` : ''
    evidence.push(`${what} last changed at ${finding.lastTransitionTime ?? ''}${age}.`)
    if (now) since = ` for at least ${formatDuration(now.getTime() - changed)}`
  }
  const behind =
    generation !== undefined && observedGeneration !== undefined
      ? generation - observedGeneration
      : undefined
  return {
    title:
      behind !== undefined
        ? `Status is ${behind} generation${behind === 1 ? '' : 's'} behind the Route (observed ${observedGeneration}, current ${generation})`
        : 'The status describes an older generation of the Route',
    remediation: `${who} has not processed the current spec${since}: it is lagging or stopped. Check that its pods run and read their logs for this Route; a Route it cannot parse can also stall it.`,
    evidence
  }
}

export function explainConditionGap(context: DiagnosisContext): Diagnosis {
  const { finding } = context
  const conditions = context.parent?.conditions ?? []
  const who = controllerLabel(finding.controllerName ?? context.parent?.controllerName)
  const diagnosis: Diagnosis = {
    evidence: [
      conditions.length === 0
        ? `${who} wrote an entry for this parent with no conditions.`
        : `${who} wrote: ${conditions.map(describeCondition).join('; ')}.`
    ]
  }
  if (finding.reason === 'ConditionMissing' && finding.condition) {
    diagnosis.title = `${who} wrote no ${finding.condition} condition`
  }
  if (finding.reason === 'ConditionUnknown' && finding.condition) {
    const reason = finding.conditionReason ? ` (${finding.conditionReason})` : ''
    diagnosis.title = `${finding.condition} is Unknown${reason}: ${who} has not decided yet`
  }
  return diagnosis
}

export function explainNoParentRefs(context: DiagnosisContext): Diagnosis {
  const { route, world } = context
  const local = world.gateways.filter((g) => g.metadata.namespace === route.metadata.namespace)
  const candidates = (local.length > 0 ? local : world.gateways).slice(0, 5)
  const names = candidates.map((g) => `${g.metadata.namespace ?? ''}/${g.metadata.name}`)
  const first = candidates[0]
  const diagnosis: Diagnosis = {
    evidence: [
      names.length > 0
        ? `Gateways that exist: ${listing(names)}.`
        : 'No Gateway exists in the source.'
    ]
  }
  if (first) {
    diagnosis.remediation = `Add spec.parentRefs naming the Gateway that should serve the Route, e.g. ${names[0] ?? ''}.`
    diagnosis.fix = [
      'spec:',
      '  parentRefs:',
      `    - name: ${yamlScalar(first.metadata.name)}`,
      `      namespace: ${yamlScalar(first.metadata.namespace ?? route.metadata.namespace)}`,
      ''
    ].join('\n')
  }
  return diagnosis
}
