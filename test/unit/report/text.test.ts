import { describe, expect, it } from 'vitest'
import { renderText } from '../../../src/report/terminal.ts'
import { expectNoControl, expectNoWorkflowCommand } from '../../fixtures/report/inert.ts'
import { gateReport, hostileReport } from '../../fixtures/report/reports.ts'

// Our own colours, so that what is left can be checked for escapes that came from the cluster.
const SGR = /\u001b\[\d+m/g

describe('renderText', () => {
  const plain = renderText(gateReport(), { color: false })
  const lines = plain.split('\n')

  it('gives one line per Route with an icon, failures first, and the verdict last', () => {
    const routeLines = lines.filter((line) => /^[✓✗○⚠] /u.test(line))
    expect(routeLines).toEqual([
      '✗ HTTPRoute shop/web  failed  deploy/routes.yaml:12',
      '✗ HTTPRoute shop/checkout  failed  deploy/routes.yaml:40',
      '✗ GRPCRoute shop/orphan  failed',
      '✓ HTTPRoute shop/home  ready',
      '⚠ HTTPRoute shop/mirror  ready',
      '✗ 2 of 5 Routes ready  3 failed · gate · 1m 4s · timed out'
    ])
  })

  it('indents parents, problems, the controller message, remediation, evidence and fix', () => {
    const web = lines.slice(lines.indexOf('✗ HTTPRoute shop/web  failed  deploy/routes.yaml:12'))
    expect(web.slice(1, 8)).toEqual([
      '    ✗ parent infra/edge#https  failed  projectcontour.io/gateway-controller · Accepted=False (NotAllowedByListeners)',
      '        ✗ No listener of Gateway infra/edge accepts Routes from namespace shop [Accepted / NotAllowedByListeners]',
      '          controller says: No listener allows this route: listener https allows routes from namespace Same',
      '          what to do: Label namespace shop so that listener https selects it, or change allowedRoutes.namespaces.from on the Gateway.',
      '          evidence:',
      '            - listener https: allowedRoutes.namespaces.from=Selector, selector gateway-access=shared',
      '            - namespace shop labels: kubernetes.io/metadata.name=shop'
    ])
    expect(web.slice(8, 13)).toEqual([
      '          suggested fix: patch Namespace shop (proven: HTTPRoute shop/web on infra/edge#https becomes ready)',
      '            Run: kubectl label namespace shop gateway-access=shared (where a GitOps tool owns Namespace shop, make the change in its source instead, or the next sync undoes it).',
      '            apiVersion: v1',
      '            kind: Namespace',
      '            metadata:'
    ])
  })

  it('shows a ready Route on one line and lists the notes at the end', () => {
    const home = lines.indexOf('✓ HTTPRoute shop/home  ready')
    expect(lines[home + 1]).toMatch(/^[✓✗○⚠] /u)
    expect(lines.slice(-3)).toEqual([
      'notes:',
      '  - observedGeneration is absent on Route shop/home: freshness not proven',
      ''
    ])
  })

  it('lists status entries that name no parentRef of the Route (orphans), as JSON does', () => {
    const report = gateReport()
    const home = report.routes.find((r) => r.name === 'home')!
    home.orphans = [
      {
        parentRef: { name: 'old-edge', namespace: 'infra', sectionName: 'http' },
        controllerName: 'projectcontour.io/gateway-controller',
        conditions: [{ type: 'Accepted', status: 'False', reason: 'NoMatchingParent' }]
      }
    ]
    const text = renderText(report, { color: false }).split('\n')
    const at = text.indexOf('✓ HTTPRoute shop/home  ready')
    expect(text.slice(at + 1, at + 3)).toEqual([
      '    status entries for no parentRef of this Route (not judged):',
      '      - infra/old-edge#http by projectcontour.io/gateway-controller: Accepted=False (NoMatchingParent)'
    ])
  })

  it('uses no ANSI codes without color, and colours verdicts with it', () => {
    expectNoControl(plain)
    const colored = renderText(gateReport(), { color: true })
    expect(colored).toContain('\u001b[31m✗\u001b[39m \u001b[1mHTTPRoute shop/web\u001b[22m')
    expect(colored).toContain('\u001b[32m✓\u001b[39m')
    expect(colored.replace(SGR, '')).toBe(plain)
  })

  it('keeps hostile cluster text from reaching the terminal or the workflow log as commands', () => {
    for (const color of [false, true]) {
      const out = renderText(hostileReport(), { color })
      expectNoControl(out.replace(SGR, ''))
      expectNoWorkflowCommand(out)
      // multi-line messages keep their indentation on every line
      expect(out).toContain('\n            \u2236:error::injected\n')
    }
  })
})
