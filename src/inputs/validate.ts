// The checks across settings, per job: what a run may combine, and what each job needs. Each failure
// is one line naming the inputs.
import { InputError } from '../runtime/errors.ts'
import type { Settings } from './settings.ts'

export function checkCombinations(s: Settings): void {
  if (s.namespace !== undefined && s.allNamespaces) {
    throw new InputError('Invalid inputs: set either namespace or all-namespaces, not both')
  }
  if (s.command === 'dump') return checkDump(s)
  if (s.command === 'predict') return checkPredict(s)
  if (s.command === 'monitor') checkMonitor(s)
  else checkGate(s)
  checkTraffic(s)
  if (s.selector !== undefined && s.routes.length > 0) {
    // one scope per run: a selector would silently leave out named Routes that lack its labels
    throw new InputError(
      'Invalid inputs: set either routes (Routes by name) or selector (Routes by label), not both'
    )
  }
  for (const r of s.routes) {
    if (!s.kinds.includes(r.kind)) {
      throw new InputError(
        `Invalid routes entry "${r.kind}/${r.name}": its kind is not in kinds (${s.kinds.join(', ')})`
      )
    }
  }
  if (s.fromFile !== undefined) {
    if (s.manifests.length > 0) {
      throw new InputError(
        'Invalid inputs: from-file evaluates a saved dump; it cannot be combined with manifests'
      )
    }
    return
  }
  if (s.dryRun && !s.applyManifests) {
    throw new InputError(
      'Invalid inputs: dry-run validates manifests for apply; check never writes to the cluster (use mode: apply)'
    )
  }
  if (s.dryRun && s.manifests.length === 0) {
    throw new InputError('Invalid inputs: dry-run needs manifests to validate')
  }
  const scoped = s.manifests.length + s.routes.length > 0 || s.selector !== undefined
  if (s.command === 'gate' && !scoped && !s.allNamespaces && s.namespace === undefined) {
    throw new InputError(
      'Nothing to gate: set manifests (to apply), routes (to locate), selector, namespace or all-namespaces'
    )
  }
}

function checkPredict(s: Settings): void {
  const other = [
    s.routes.length > 0 && 'routes',
    s.selector !== undefined && 'selector',
    s.allNamespaces && 'all-namespaces',
    s.dryRun && 'dry-run',
    s.untilAnnotation !== undefined && 'until-annotation',
    s.comment && 'comment',
    s.verifyTraffic && 'verify-traffic',
    s.watchDurationMs !== undefined && 'watch-duration',
    s.previous !== undefined && 'previous',
    s.stateOut !== undefined && 'state-out'
  ].filter((name) => name !== false)
  if (other.length > 0) {
    throw new InputError(
      `Invalid inputs: ${other.join(', ')} ${other.length === 1 ? 'does' : 'do'} not apply to predict, which predicts the Routes of manifests from objects alone`
    )
  }
  if (s.manifests.length === 0) {
    throw new InputError(
      'Nothing to predict: set manifests (the files of the pull request; - reads stdin)'
    )
  }
  if (s.fromFile === '-' && s.manifests.includes('-')) {
    throw new InputError('Invalid inputs: only one of from-file and manifests can read stdin')
  }
}

function checkDump(s: Settings): void {
  if (s.outputFile === undefined) {
    throw new InputError('Nowhere to write the dump: set -o FILE (or -o - for stdout)')
  }
}

function checkMonitor(s: Settings): void {
  const gateOnly = [
    s.manifests.length > 0 && 'manifests',
    s.routes.length > 0 && 'routes',
    s.dryRun && 'dry-run',
    s.untilAnnotation !== undefined && 'until-annotation',
    s.comment && 'comment',
    s.verifyTraffic && 'verify-traffic'
  ].filter((name) => name !== false)
  if (gateOnly.length > 0) {
    throw new InputError(
      `Invalid inputs: ${gateOnly.join(', ')} belong${gateOnly.length === 1 ? 's' : ''} to the gate; monitor judges every Route in scope (namespace, all-namespaces, kinds, selector) and reports in the tracking issue`
    )
  }
  if (s.fromFile !== undefined && s.watchDurationMs !== undefined) {
    throw new InputError(
      'Invalid inputs: watch-duration watches a cluster; it cannot be combined with from-file'
    )
  }
}

function checkGate(s: Settings): void {
  const monitorOnly = [
    s.watchDurationMs !== undefined && 'watch-duration',
    s.previous !== undefined && 'previous',
    s.stateOut !== undefined && 'state-out'
  ].filter((name) => name !== false)
  if (monitorOnly.length > 0) {
    throw new InputError(
      `Invalid inputs: ${monitorOnly.join(', ')} belong${monitorOnly.length === 1 ? 's' : ''} to monitor mode (route-gate monitor, or mode: monitor in the Action)`
    )
  }
}

function checkTraffic(s: Settings): void {
  const needsIt = [
    s.gatewayAddress !== undefined && 'gateway-address',
    s.expectStatus !== undefined && 'expect-status',
    s.trafficCa !== undefined && 'traffic-ca',
    s.trafficSkipTlsVerify && 'traffic-skip-tls-verify',
    s.trafficAllowedCidrs.length > 0 && 'traffic-allowed-cidrs',
    s.trafficShowBody && 'traffic-show-body'
  ].filter((name) => name !== false)
  if (!s.verifyTraffic && needsIt.length > 0) {
    throw new InputError(
      `Invalid inputs: ${needsIt.join(', ')} only ${needsIt.length === 1 ? 'applies' : 'apply'} with verify-traffic: true`
    )
  }
  if (s.trafficCa !== undefined && s.trafficSkipTlsVerify) {
    throw new InputError(
      'Invalid inputs: set either traffic-ca (verify certificates against an extra CA) or traffic-skip-tls-verify (verify nothing), not both'
    )
  }
  if (s.verifyTraffic && (s.fromFile !== undefined || s.dryRun)) {
    throw new InputError(
      `Invalid inputs: verify-traffic sends requests to a live Gateway; it cannot be combined with ${s.dryRun ? 'dry-run' : 'from-file'}`
    )
  }
}
