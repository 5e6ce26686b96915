// Evidence for rule-level reasons: the rules, matches and filters a message names, checked against
// the values Gateway API defines (UnsupportedValue, IncompatibleFilters, Fall Back).
import type { Diagnosis, DiagnosisContext } from './context.ts'
import { controllerDocs } from './controller-docs.ts'
import { describeMatch, routeRules, rulesNamedIn } from '../model/route-spec.ts'
import type { Rule } from '../model/route-spec.ts'
import { listing, quoted } from '../wording/phrasing.ts'
import { conditionOf } from '../rules/world.ts'
import type { RouteKind } from '../model/types.ts'

const FILTERS: Partial<Record<RouteKind, string[]>> = {
  HTTPRoute: [
    'RequestHeaderModifier',
    'ResponseHeaderModifier',
    'RequestMirror',
    'RequestRedirect',
    'URLRewrite',
    'CORS',
    'ExternalAuth',
    'ExtensionRef'
  ],
  GRPCRoute: ['RequestHeaderModifier', 'ResponseHeaderModifier', 'RequestMirror', 'ExtensionRef']
}
const PATH_TYPES = ['Exact', 'PathPrefix', 'RegularExpression']
const VALUE_TYPES = ['Exact', 'RegularExpression']
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']

function describeRule(rule: Rule): string {
  const parts = [
    rule.matches.length > 0 ? `matches ${listing(rule.matches.map(describeMatch))}` : 'no matches',
    rule.filters.length > 0 ? `filters ${listing(rule.filters.map((f) => f.type))}` : 'no filters',
    `${rule.backendRefs.length} backendRef${rule.backendRefs.length === 1 ? '' : 's'}`
  ]
  return `Rule ${rule.index}: ${parts.join('; ')}.`
}

/** Values outside what Gateway API defines, as sentences with the supported set. */
function unsupportedValues(
  rule: Rule,
  kind: RouteKind,
  supportedFilters: string[] | undefined
): string[] {
  const found: string[] = []
  const filters = supportedFilters ?? FILTERS[kind]
  for (const f of rule.filters) {
    if (filters && !filters.includes(f.type))
      found.push(`${f.where} has type ${f.type}; supported: ${listing(filters)}.`)
  }
  for (const { field, type } of rule.matches) {
    const ok =
      field === 'path'
        ? PATH_TYPES
        : field === 'header' || field === 'query'
          ? VALUE_TYPES
          : undefined
    if (ok && !ok.includes(type)) {
      found.push(
        `Rule ${rule.index} has a ${field} match of type ${type}; supported: ${listing(ok)}.`
      )
    }
    if (field === 'method' && kind === 'HTTPRoute' && !METHODS.includes(type)) {
      found.push(`Rule ${rule.index} matches method ${type}; supported: ${listing(METHODS)}.`)
    }
  }
  return found
}

/** Filter combinations the HTTPRoute spec forbids or that controllers reject. */
function incompatibleFilters(rule: Rule): string[] {
  const types = rule.filters.filter((f) => !f.where.includes('backendRef')).map((f) => f.type)
  const found: string[] = []
  if (types.includes('RequestRedirect') && types.includes('URLRewrite'))
    found.push(`Rule ${rule.index} combines RequestRedirect and URLRewrite.`)
  if (
    types.includes('RequestRedirect') &&
    rule.backendRefs.some((r) => !r.where.includes('RequestMirror'))
  ) {
    found.push(
      `Rule ${rule.index} has a RequestRedirect filter and backendRefs; a redirect answers the request itself.`
    )
  }
  for (const type of ['RequestRedirect', 'URLRewrite']) {
    if (types.filter((t) => t === type).length > 1)
      found.push(`Rule ${rule.index} has more than one ${type} filter.`)
  }
  return found
}

function rulesInQuestion(context: DiagnosisContext, message: string | undefined): Rule[] {
  const rules = routeRules(context.route)
  const named = rulesNamedIn(message)
  const picked = rules.filter((r) => named.includes(r.index))
  return picked.length > 0 ? picked : rules
}

export function explainUnsupportedValue(context: DiagnosisContext): Diagnosis {
  const { route, controller, finding } = context
  const rules = rulesInQuestion(context, finding.message)
  const problems = rules.flatMap((r) =>
    unsupportedValues(r, route.kind, controller?.supports?.filters)
  )
  const named = rulesNamedIn(finding.message)
  const evidence = [...(named.length > 0 ? rules.map(describeRule) : []), ...problems]
  const diagnosis: Diagnosis = { evidence }
  if (problems.length > 0) {
    diagnosis.title = problems[0]?.replace(/; supported:.*$/, '').replace(/\.$/, '') ?? ''
    diagnosis.remediation = `Change the values named in the evidence to supported ones${controller ? ` (${controller.name} documents its support at ${controllerDocs(controller)?.docs ?? ''})` : ''}.`
  } else if (named.length > 0) {
    diagnosis.remediation = `Fix rule ${listing(named.map(String))} as the message says; the other rules are unaffected.`
  }
  return diagnosis
}

export function explainIncompatibleFilters(context: DiagnosisContext): Diagnosis {
  const rules = rulesInQuestion(context, context.finding.message)
  const clashes = rules.flatMap(incompatibleFilters)
  const unsupported = rules.flatMap((r) =>
    unsupportedValues(r, context.route.kind, context.controller?.supports?.filters)
  )
  const evidence = [
    ...rules.filter((r) => r.filters.length > 0).map(describeRule),
    ...clashes,
    ...unsupported
  ]
  const diagnosis: Diagnosis = { evidence }
  if (clashes[0] !== undefined) {
    diagnosis.title = clashes[0].replace(/\.$/, '')
    diagnosis.remediation =
      'Split the rule in two or drop one filter: a RequestRedirect rule needs no backendRefs and no URLRewrite, and a rule holds at most one RequestRedirect and one URLRewrite.'
  } else if (unsupported[0] !== undefined) {
    diagnosis.remediation = `Replace the filter with a supported one: ${unsupported[0]}`
  }
  return diagnosis
}

/** Fall Back mode: the PartiallyInvalid message names the rules that keep the new spec from being served. */
export function explainFallBack(context: DiagnosisContext): Diagnosis {
  const partially = conditionOf(context.parent?.conditions ?? [], 'PartiallyInvalid')
  const message = partially?.message ?? context.finding.message
  const base = explainUnsupportedValue({
    ...context,
    finding: { ...context.finding, ...(message ? { message } : {}) }
  })
  return {
    evidence: [
      ...(partially ? [`PartiallyInvalid says: ${quoted(partially.message)}`] : []),
      ...base.evidence
    ],
    ...(base.remediation ? { remediation: base.remediation } : {})
  }
}
