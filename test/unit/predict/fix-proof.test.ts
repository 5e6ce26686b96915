// A listener fix printed for NotAllowedByListeners, carried out and predicted: the refused Route gains
// the listener and no other Route loses one. The shipped example once suggested a selector on the
// Route's namespace alone, which would have detached every Route of shop from infra/edge#https.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { parseManifestText } from '../../../src/read/manifests.ts'
import type { KubeObject, PredictReport } from '../../../src/model/types.ts'
import { ENVOY, gateway, gatewayClass, httpRoute, namespace, run, service } from './fixtures.ts'
import { fixText } from '../../helpers/fixes.ts'

const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'])

function withoutStatus(object: KubeObject): KubeObject {
  const { status: _status, ...rest } = object
  return rest
}

/** Every parent of every Route, as "kind ns/name parent → verdict". */
function verdicts(report: PredictReport): Map<string, string> {
  const out = new Map<string, string>()
  for (const r of report.routes)
    for (const p of r.parents)
      out.set(
        `${r.kind} ${r.namespace}/${r.name} ${p.parentRef.namespace}/${p.parentRef.name}#${p.parentRef.sectionName ?? ''}`,
        p.verdict
      )
  return out
}

function problemOf(report: PredictReport, name: string) {
  const route = report.routes.find((r) => r.name === name)
  const problem = route?.parents.flatMap((p) => p.problems)[0]
  if (!problem) throw new Error(`no problem predicted for ${name}`)
  return problem
}

const SECURE = 'HTTPRoute shop/secure infra/edge#https'

/** The Gateway with one listener's selector replaced by one on a single namespace's name. */
function onlyName(gw: KubeObject, listener: string, name: string): KubeObject {
  const spec = gw.spec as { listeners: { name: string }[] }
  const listeners = spec.listeners.map((l) =>
    l.name === listener
      ? {
          ...l,
          allowedRoutes: {
            namespaces: {
              from: 'Selector',
              selector: { matchLabels: { 'kubernetes.io/metadata.name': name } }
            }
          }
        }
      : l
  )
  return { ...gw, spec: { ...spec, listeners } }
}

describe('NotAllowedByListeners fixes, proven by prediction', () => {
  it('the example: labelling marketing, as printed, attaches landing and detaches no Route of shop', async () => {
    const text = readFileSync(
      new URL('../../../examples/cluster-dump.yaml', import.meta.url),
      'utf8'
    )
    const objects = (await parseManifestText(text, 'cluster-dump.yaml')).map((d) => d.object)
    const cluster = objects.filter((o) => !ROUTE_KINDS.has(o.kind))
    // the example has no Route of shop on https: add one, as the pull request of a shop team would
    const secure = httpRoute('shop', 'secure', {
      parentRefs: [{ name: 'edge', namespace: 'infra', sectionName: 'https' }],
      hostnames: ['secure.example.com'],
      backendRefs: [{ name: 'storefront', port: 8080 }]
    })
    const routes = [...objects.filter((o) => ROUTE_KINDS.has(o.kind)).map(withoutStatus), secure]
    const before = run(cluster, routes)
    const problem = problemOf(before, 'landing')
    expect(problem.reason).toBe('NotAllowedByListeners')
    // no Gateway change: a new selector would replace gateway-access=edge, which admits shop today
    expect(problem.fixes?.map((f) => `${f.action} ${f.target.kind} ${f.target.name}`)).toEqual([
      'patch Namespace marketing'
    ])
    expect(problem.fixes?.[0]?.proof?.state).toBe('proven')
    const label = /^kubectl label namespace (\S+) (\S+)=(\S+)$/.exec(
      problem.fixes?.[0]?.command ?? ''
    )
    expect(label?.slice(1)).toEqual(['marketing', 'gateway-access', 'edge'])

    const fixed = cluster.map((o) =>
      o.kind === 'Namespace' && o.metadata.name === label?.[1]
        ? {
            ...o,
            metadata: {
              ...o.metadata,
              labels: { ...o.metadata.labels, [label[2] ?? '']: label[3] ?? '' }
            }
          }
        : o
    )
    const after = verdicts(run(fixed, routes))
    const changed = [...verdicts(before)].filter(([key, verdict]) => after.get(key) !== verdict)
    expect(changed).toEqual([['HTTPRoute marketing/landing infra/edge#https', 'failed']])
    expect(after.get('HTTPRoute marketing/landing infra/edge#https')).toBe('ready')
    expect(after.get(SECURE)).toBe('ready')

    // the fix the example printed before: a selector on marketing's name alone detaches shop/secure
    const replaced = cluster.map((o) =>
      o.kind === 'Gateway' ? onlyName(o, 'https', 'marketing') : o
    )
    expect(verdicts(run(replaced, routes)).get(SECURE)).toBe('failed')
  })

  it('from: Same: the printed listener YAML admits the new namespace and keeps the Gateway one', () => {
    const cluster = [
      gatewayClass('eg', ENVOY),
      namespace('infra'),
      namespace('shop'),
      gateway('infra', 'edge', [{ name: 'http', allowedRoutes: { namespaces: { from: 'Same' } } }]),
      service('infra', 'web'),
      service('shop', 'web')
    ]
    const parentRefs = [{ name: 'edge', namespace: 'infra' }]
    const routes = [
      httpRoute('infra', 'home', { parentRefs }),
      httpRoute('shop', 'store', { parentRefs })
    ]
    const before = run(cluster, routes)
    expect(verdicts(before).get('HTTPRoute infra/home infra/edge#')).toBe('ready')
    const [fix] = problemOf(before, 'store').fixes ?? []
    expect(fix?.proof?.state).toBe('proven')
    // the Gateway as printed, read back from its YAML, applied in place of the cluster's
    const fixedGateway = parse(fixText({ fixes: fix ? [fix] : [] }) ?? '') as KubeObject
    expect(fixedGateway).toEqual(fix?.object)
    const after = run(
      cluster.map((o) => (o.kind === 'Gateway' ? { ...fixedGateway, status: o.status } : o)),
      routes
    )
    expect([...verdicts(after)]).toEqual([
      ['HTTPRoute infra/home infra/edge#', 'ready'],
      ['HTTPRoute shop/store infra/edge#', 'ready']
    ])
  })
})
