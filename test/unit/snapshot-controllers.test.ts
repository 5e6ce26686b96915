// Snapshot mode (the committed CLI bundle, `route-gate check --from-file`) on dumps shaped the way
// particular controllers write status: each case is one a real controller produces.
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import { expectValidReport } from '../helpers/schema.ts'

const DUMPS = 'test/fixtures/snapshot'

async function snapshot(file: string): Promise<{ code: number | null; report: Report }> {
  const { code, stdout, stderr } = await runCli([
    'check',
    '--from-file',
    `${DUMPS}/${file}`,
    '--all-namespaces',
    '--format',
    'json'
  ])
  expect(stderr).toBe('')
  const report = JSON.parse(stdout) as Report
  expectValidReport(report)
  return { code, report }
}

describe('route-gate check --from-file on controllers’ own status shapes', () => {
  it('Linkerd: a Service parent written back with group core is the spec’s group "" (ready)', async () => {
    const { code, report } = await snapshot('linkerd-core-group.yaml')
    expect(code).toBe(0)
    expect(report.verdict).toBe('ready')
    const route = report.routes[0]!
    expect(route.parents).toHaveLength(1)
    expect(route.parents[0]).toMatchObject({
      verdict: 'ready',
      controllerName: 'linkerd.io/policy-controller',
      parentRef: { group: '', kind: 'Service', namespace: 'payments', name: 'api', port: 8080 }
    })
    expect(route.orphans).toBeUndefined()
  })

  it('NGINX Gateway Fabric: the only entry, written without port, group and kind, belongs to the port-only parentRef', async () => {
    const { code, report } = await snapshot('nginx-port-only.yaml')
    expect(code).toBe(0)
    expect(report.verdict).toBe('ready')
    expect(report.routes[0]!.parents[0]).toMatchObject({
      verdict: 'ready',
      controllerName: 'gateway.nginx.org/nginx-gateway-controller',
      parentRef: { name: 'edge', port: 8443 }
    })
    expect(report.notes).toContain(
      "HTTPRoute shop/web: gateway.nginx.org/nginx-gateway-controller wrote its entry for parentRef edge:8443 without the port; it is the only entry for that parent and no other parentRef names it, so it was judged as this parentRef's"
    )
  })

  it('default Gateways: only a Gateway that claims the Route by default counts; a leftover entry keeps NoParentRefs', async () => {
    const { code, report } = await snapshot('default-gateways.yaml')
    expect(code).toBe(1)
    const byName = new Map(report.routes.map((r) => [r.name, r]))
    expect(byName.get('opted-in')).toMatchObject({
      verdict: 'ready',
      parents: [{ verdict: 'ready', parentRef: { namespace: 'infra', name: 'default' } }]
    })
    const leftover = byName.get('leftover')!
    expect(leftover.verdict).toBe('failed')
    expect(leftover.parents).toEqual([])
    expect(leftover.problems?.map((p) => p.reason)).toEqual(['NoParentRefs'])
    expect(leftover.orphans).toHaveLength(1)
  })

  it("ListenerSet parent: only the parent Gateway's controller's entry is judged, against the ListenerSet's listeners", async () => {
    const { code, report } = await snapshot('listenerset-parent.yaml')
    expect(code).toBe(1)
    const parent = report.routes[0]!.parents[0]!
    expect(parent).toMatchObject({
      verdict: 'failed',
      controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
      parentRef: { kind: 'ListenerSet', namespace: 'teams', name: 'team-a' }
    })
    expect(parent.problems[0]).toMatchObject({
      reason: 'NotAllowedByListeners',
      title:
        'ListenerSet teams/team-a: listener team-http does not allow this HTTPRoute from namespace shop'
    })
    expect(parent.problems[0]!.evidence).toContain(
      'Listener team-http (port 8081, HTTP) admits Routes from namespace teams only (from: Same); the HTTPRoute is in shop.'
    )
  })
})

describe('status one generation behind, from a controller the dump shows running', () => {
  const lagging = /lagging or stopped/

  it.each([
    [
      'lagging-one-generation.yaml',
      'parent infra/edge#https of this Route, which its spec no longer names'
    ],
    ['lagging-gateway-current.yaml', 'Gateway infra/edge']
  ])('%s: the controller is running and has not reached generation 2', async (file, proof) => {
    const { code, report } = await snapshot(file)
    expect(code).toBe(1)
    const parent = report.routes[0]!.parents.find((p) => p.parentRef.sectionName === 'admin')!
    expect(parent.verdict).toBe('pending')
    const problem = parent.problems.find((p) => p.reason === 'StaleStatus')!
    expect(problem.remediation).toContain(`is running (it wrote current status for ${proof})`)
    expect(problem.remediation).toContain('it may not have reached it yet')
    expect(problem.remediation).not.toMatch(lagging)
  })
})
