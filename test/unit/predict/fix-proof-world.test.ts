// Fixes proven before they are printed (issue 37): the shipped example's selector case, where a
// listener rewrite would detach shop/secure, and every printed fix of the example carried out.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseManifestText } from '../../../src/read/manifests.ts'
import { index } from '../../../src/predict/overlay.ts'
import { proveFixes } from '../../../src/predict/prove.ts'
import { writableObject } from '../../../src/diagnose/fixes.ts'
import type { Fix, KubeObject, RouteResult } from '../../../src/model/types.ts'
import { renderText } from '../../../src/report/terminal.ts'
import { checkFixes, ROUTE_KINDS } from '../../helpers/fix-check.ts'
import { gateway, gatewayClass, httpRoute, namespace, run, service, ENVOY } from './fixtures.ts'

const EVERY_KIND = ['GatewayClass', 'Gateway', 'Namespace', 'Service', 'ReferenceGrant']

async function example(): Promise<{ cluster: KubeObject[]; routes: KubeObject[] }> {
  const text = readFileSync(new URL('../../../examples/cluster-dump.yaml', import.meta.url), 'utf8')
  const objects = (await parseManifestText(text, 'cluster-dump.yaml')).map((d) => d.object)
  // the example has no Route of shop on https: add one, as a shop team's pull request would
  const secure = httpRoute('shop', 'secure', {
    parentRefs: [{ name: 'edge', namespace: 'infra', sectionName: 'https' }],
    hostnames: ['secure.example.com'],
    backendRefs: [{ name: 'storefront', port: 8080 }]
  })
  return {
    cluster: objects.filter((o) => !ROUTE_KINDS.has(o.kind)),
    routes: [...objects.filter((o) => ROUTE_KINDS.has(o.kind)).map(writableObject), secure]
  }
}

describe('fixes proven by prediction (issue 37)', () => {
  it('the selector case: replacing gateway-access=edge on infra/edge#https is proven to detach shop/secure; labelling marketing is proven', async () => {
    const { cluster, routes } = await example()
    const report = run(cluster, routes)
    const landing = report.routes.find((r) => r.name === 'landing')
    const problem = landing?.parents[0]?.problems.find((p) => p.reason === 'NotAllowedByListeners')
    expect(problem?.fixes?.map((f) => [f.target.kind, f.target.name, f.proof?.state])).toEqual([
      ['Namespace', 'marketing', 'proven']
    ])
    expect(problem?.fixes?.[0]?.proof?.text).toMatch(
      /^HTTPRoute marketing\/landing on infra\/edge#https becomes ready/
    )

    // the fix route-gate printed before: a selector on marketing's name alone
    const gateway = cluster.find((o) => o.kind === 'Gateway' && o.metadata.name === 'edge')!
    const spec = gateway.spec as { listeners: { name: string }[] }
    const rewritten: KubeObject = writableObject({
      ...gateway,
      spec: {
        ...spec,
        listeners: spec.listeners.map((l) =>
          l.name === 'https'
            ? {
                ...l,
                allowedRoutes: {
                  namespaces: {
                    from: 'Selector',
                    selector: { matchLabels: { 'kubernetes.io/metadata.name': 'marketing' } }
                  }
                }
              }
            : l
        )
      }
    })
    const bad: Fix = {
      action: 'patch',
      target: { apiVersion: gateway.apiVersion, kind: 'Gateway', namespace: 'infra', name: 'edge' },
      object: rewritten
    }
    const claimed = {
      ...landing!,
      parents: [{ ...landing!.parents[0]!, problems: [{ ...problem!, fixes: [bad] }] }]
    }
    const [proved] = proveFixes([claimed as RouteResult<'ready' | 'failed' | 'unknown'>], {
      objects: () => index([...cluster, ...routes], EVERY_KIND),
      required: ['Accepted', 'ResolvedRefs']
    })
    const proof = proved?.parents[0]?.problems[0]?.fixes?.[0]?.proof
    expect(proof?.state).toBe('detaches')
    expect(proof?.detaches).toContain('HTTPRoute shop/secure on infra/edge#https')
  })

  it('every printed patch or create fix of the example with shop/secure, carried out, holds', async () => {
    const { cluster, routes } = await example()
    const fixes = checkFixes('the example with shop/secure', cluster, routes)
    // a Namespace label and a ReferenceGrant, both proven
    expect(fixes.map((f) => `${f.action} ${f.target.kind} ${f.proof?.state}`).sort()).toEqual([
      'create ReferenceGrant proven',
      'patch Namespace proven'
    ])
  })

  it('a Namespace new in the pull request: the fix points at its document and shows it as it should read, with no kubectl', () => {
    const cluster = [
      gatewayClass('eg', ENVOY),
      namespace('infra'),
      gateway('infra', 'edge', [
        {
          name: 'http',
          allowedRoutes: {
            namespaces: {
              from: 'Selector',
              selector: { matchLabels: { 'gateway-access': 'edge' } }
            }
          }
        }
      ])
    ]
    // the pull request's documents: routes.yaml, a Namespace at line 1, its Service, its Route
    const manifests = [
      namespace('blog'),
      service('blog', 'web'),
      httpRoute('blog', 'home', { parentRefs: [{ name: 'edge', namespace: 'infra' }] })
    ]
    const report = run(cluster, manifests)
    const problem = report.routes[0]?.parents[0]?.problems[0]
    expect(problem?.reason).toBe('NotAllowedByListeners')
    expect(problem?.remediation).not.toContain('kubectl')
    const [fix] = problem?.fixes ?? []
    expect(fix).toMatchObject({ action: 'patch', file: 'routes.yaml', line: 1 })
    expect(fix?.command).toBeUndefined()
    expect(fix?.object?.metadata.labels).toEqual({ 'gateway-access': 'edge' })
    expect(fix?.proof?.state).toBe('proven')
    const text = renderText(report, { color: false })
    expect(text).toContain('In routes.yaml:1, the document should read:')
    expect(text).not.toContain('kubectl label')
  })
})
