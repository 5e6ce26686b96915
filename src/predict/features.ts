// Calibration by feature: what a controller wrote on the dump's own Routes for the features they
// use. Where it refused an existing Route that predict would have called attached, and no Route
// using one of its features is accepted by that controller, a new Route using that feature on the
// same controller is refused the same way, the existing Route named as the evidence. This is how a
// controller's unsupported Extended features (Contour's CORS filter: UnsupportedValue) show, with no
// hard-coded list, and only as far as the dump shows them.
import { arrayField, isRecord } from '../model/unknown.ts'
import { routeRules } from '../model/route-spec.ts'
import type { Condition, RouteObject } from '../model/types.ts'

/** "filter CORS", "path match RegularExpression", "rule timeouts": what a Route asks its controller for. */
export function featuresOf(route: RouteObject): Set<string> {
  const out = new Set<string>()
  for (const rule of routeRules(route)) {
    for (const filter of rule.filters) {
      const ext = filter.extensionRef
      out.add(ext ? `filter ExtensionRef ${ext.group}/${ext.kind}` : `filter ${filter.type}`)
    }
    for (const match of rule.matches) {
      if (match.field === 'method') out.add('method match')
      else if (match.type !== 'Exact' && match.type !== 'PathPrefix') {
        out.add(`${match.field} match ${match.type}`)
      }
    }
  }
  for (const raw of arrayField(route.spec, 'rules') ?? []) {
    if (!isRecord(raw)) continue
    for (const field of ['timeouts', 'retry', 'sessionPersistence']) {
      if (raw[field] !== undefined) out.add(`rule ${field}`)
    }
  }
  return out
}

/**
 * Refusals that are about attachment or precedence between Routes, which the rules model, never
 * about a feature: a Route that lost a conflict is no evidence against its filters.
 */
const NOT_ABOUT_FEATURES = new Set([
  'NotAllowedByListeners',
  'NoMatchingParent',
  'NoMatchingListenerHostname',
  'RuleMatchConflict',
  'RuleMatchPartiallyConflict',
  'HostnameConflict',
  'Pending'
])

interface Refusal {
  route: string
  condition: Condition
  features: Set<string>
}

interface Ledger {
  refusals: Refusal[]
  /** the features of the existing Routes the controller accepted */
  accepted: Set<string>
  /** built on the first question, once every Route is recorded */
  blamed?: Map<string, Refusal>
}

/** A refusal the dump shows for a feature, on one controller. */
export interface FeatureRefusal {
  feature: string
  route: string
  condition: Condition
}

export class FeatureLedger {
  private readonly byController = new Map<string, Ledger>()

  /**
   * One existing Route's parent as its controller wrote it, and whether predict called it attached:
   * a refusal predict did not foresee is evidence against the Route's features.
   */
  record(
    route: RouteObject,
    routeId: string,
    controllerName: string,
    written: Condition | undefined,
    predictedAttached: boolean
  ): void {
    if (written === undefined || NOT_ABOUT_FEATURES.has(written.reason ?? '')) return
    const refused = written.status === 'False' && predictedAttached
    if (!refused && written.status !== 'True') return
    const features = featuresOf(route)
    if (features.size === 0) return
    let ledger = this.byController.get(controllerName)
    if (ledger === undefined) {
      ledger = { refusals: [], accepted: new Set() }
      this.byController.set(controllerName, ledger)
    }
    delete ledger.blamed
    if (refused) ledger.refusals.push({ route: routeId, condition: written, features })
    else for (const f of features) ledger.accepted.add(f)
  }

  /**
   * A feature of `route` that explains an existing refusal alone: the refused Route used it, and
   * every other feature it used is accepted on another Route of the same controller, while this one
   * is accepted on none. Anything less is no evidence: the refusal may be for another reason.
   */
  refusalFor(route: RouteObject, controllerName: string): FeatureRefusal | undefined {
    const blamed = this.blamedBy(controllerName)
    for (const feature of [...featuresOf(route)].sort()) {
      const refusal = blamed.get(feature)
      if (refusal) return { feature, route: refusal.route, condition: refusal.condition }
    }
    return undefined
  }

  /** Each feature that alone explains a refusal, with the first such refusal: built once, linear. */
  private blamedBy(controllerName: string): Map<string, Refusal> {
    const ledger = this.byController.get(controllerName)
    if (ledger === undefined) return new Map()
    if (ledger.blamed) return ledger.blamed
    const blamed = new Map<string, Refusal>()
    for (const refusal of ledger.refusals) {
      const unexplained = [...refusal.features].filter((f) => !ledger.accepted.has(f))
      const only = unexplained.length === 1 ? unexplained[0]! : undefined
      if (only !== undefined && !blamed.has(only)) blamed.set(only, refusal)
    }
    ledger.blamed = blamed
    return blamed
  }
}
