// `route-gate predict` as a user runs it: the committed bundle, a dump file (route-gate's own, or
// kubectl's), the pull request's manifests from files or stdin, every output format and exit code.
import { mkdtemp, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { stringify } from 'yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderDump } from '../../src/jobs/dump.ts'
import type { KubeObject, PredictReport } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import { expectValidReport } from '../helpers/schema.ts'
import {
  baseCluster,
  EVERY_KIND,
  gateway,
  httpRoute,
  namespace,
  service
} from './predict/fixtures.ts'

const EDGE = { name: 'edge', namespace: 'infra' }
const TAKEN = '2026-12-01T00:00:00.000Z'

let dir: string
const file = (name: string): string => path.join(dir, name)

async function write(name: string, objects: KubeObject[]): Promise<string> {
  await writeFile(file(name), objects.map((o) => stringify(o)).join('---\n'))
  return file(name)
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-predict-'))
  const cluster = [...baseCluster(), namespace('shop'), service('shop', 'cart', [8080])]
  await writeFile(
    file('dump.yaml'),
    renderDump(
      { objects: cluster, forbidden: [], complete: [...EVERY_KIND, 'HTTPRoute'] },
      {
        takenAt: TAKEN,
        cluster: 'https://127.0.0.1:6443',
        context: 'ci',
        forbidden: [],
        complete: [...EVERY_KIND, 'HTTPRoute']
      }
    )
  )
  // what kubectl get … -A -o yaml writes: a List without route-gate's header
  await writeFile(
    file('kubectl.yaml'),
    stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: cluster.filter((o) => o.kind !== 'Service')
    })
  )
  await write('good.yaml', [
    httpRoute('app', 'web', { parentRefs: [EDGE], backendRefs: [{ name: 'web', port: 80 }] })
  ])
  await write('bad.yaml', [
    httpRoute('app', 'web', { parentRefs: [EDGE], backendRefs: [{ name: 'web', port: 80 }] }),
    httpRoute('shop', 'cart', { parentRefs: [EDGE], backendRefs: [{ name: 'cart', port: 80 }] }),
    httpRoute('shop', 'lost', { backendRefs: [{ name: 'cart', port: 8080 }] })
  ])
  await write('new-gateway.yaml', [
    gateway('shop', 'own', [{ name: 'http', port: 8080 }]),
    httpRoute('shop', 'cart', {
      parentRefs: [{ name: 'own', namespace: 'shop' }],
      backendRefs: [{ name: 'cart', port: 8080 }]
    }),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } }
  ])
})

async function predictJson(
  args: string[],
  input?: string
): Promise<{ code: number; report: PredictReport; stderr: string }> {
  const { code, stdout, stderr } = await runCli(['predict', ...args, '-o', 'json'], {
    cwd: dir,
    ...(input === undefined ? {} : { input })
  })
  const report = JSON.parse(stdout) as PredictReport
  expectValidReport(report)
  return { code: code ?? -1, report, stderr }
}

describe('route-gate predict --from-file', () => {
  it('a correct change: exit 0, every parent predicted ready, the dump and its age named', async () => {
    const { code, report, stderr } = await predictJson([
      '--manifests',
      'good.yaml',
      '--from-file',
      'dump.yaml'
    ])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(report).toMatchObject({
      mode: 'predict',
      verdict: 'ready',
      counts: { routes: 1, ready: 1 }
    })
    expect(report.routes[0]!.parents[0]!.conditions).toEqual([
      expect.objectContaining({ type: 'Accepted', status: 'True' }),
      expect.objectContaining({ type: 'ResolvedRefs', status: 'True' })
    ])
    expect(report.prediction.source).toMatchObject({ kind: 'dump', takenAt: TAKEN, context: 'ci' })
    expect(report.prediction.source.ageSeconds).toBeGreaterThan(0)
  })

  it('definite failures: exit 1, the wrong port and a Route that attaches to nothing', async () => {
    const { code, report } = await predictJson([
      '--manifests',
      'bad.yaml',
      '--from-file',
      'dump.yaml'
    ])
    expect(code).toBe(1)
    expect(report.counts).toMatchObject({ routes: 3, ready: 1, failed: 2 })
    const cart = report.routes.find((r) => r.name === 'cart')!
    expect(cart.verdict).toBe('failed')
    expect(cart.source).toEqual({ file: 'bad.yaml', line: expect.any(Number) })
    expect(cart.parents[0]!.conditions).toContainEqual(
      expect.objectContaining({ type: 'ResolvedRefs', status: 'False' })
    )
    expect(cart.parents[0]!.problems[0]!.remediation).toMatch(/8080/)
    const lost = report.routes.find((r) => r.name === 'lost')!
    expect(lost.verdict).toBe('failed')
    expect(JSON.stringify(lost)).toMatch(/attaches to nothing/)
  })

  it('text output says predicted, names the failing manifest line and the dump', async () => {
    const { code, stdout } = await runCli(
      ['predict', '--manifests', 'bad.yaml', '--from-file', 'dump.yaml'],
      { cwd: dir }
    )
    expect(code).toBe(1)
    expect(stdout).toMatch(/1 of 3 Routes predicted ready/)
    expect(stdout).toMatch(/bad\.yaml:\d+/)
    expect(stdout).toContain(`Predicted against a dump taken ${TAKEN}`)
    expect(stdout).toContain('a controller would write:')
    expect(stdout).not.toContain('controller says:')
  })

  it('a Gateway new in the pull request is predicted from its spec; other kinds are listed and ignored', async () => {
    const { code, report } = await predictJson([
      '--manifests',
      'new-gateway.yaml',
      '--from-file',
      'dump.yaml'
    ])
    expect(code).toBe(0)
    expect(report.prediction.newGateways).toEqual(['shop/own'])
    expect(report.prediction.ignored).toEqual([
      expect.objectContaining({ file: 'new-gateway.yaml', kind: 'ConfigMap' })
    ])
  })

  it('a dump that is not route-gate dump and holds no Service: no age, and a Service is unknown, never failed', async () => {
    const { code, report } = await predictJson([
      '--manifests',
      'bad.yaml',
      '--from-file',
      'kubectl.yaml'
    ])
    const cart = report.routes.find((r) => r.name === 'cart')!
    expect(cart.verdict).toBe('unknown')
    expect(cart.parents[0]!.why!.join(' ')).toMatch(/Service/)
    expect(report.prediction.missingKinds).toContain('Service')
    expect(report.prediction.source.takenAt).toBeUndefined()
    // the Route without parentRefs is still a definite failure
    expect(code).toBe(1)
  })

  it('a dump that is not route-gate dump lists in full each kind it holds, unless --partial-dump', async () => {
    await writeFile(
      file('kubectl-all.yaml'),
      stringify({ apiVersion: 'v1', kind: 'List', items: [...baseCluster(), namespace('shop')] })
    )
    await write('gone.yaml', [
      httpRoute('shop', 'cart', { parentRefs: [EDGE], backendRefs: [{ name: 'gone', port: 80 }] })
    ])
    const args = ['--manifests', 'gone.yaml', '--from-file', 'kubectl-all.yaml']
    const full = await predictJson(args)
    expect(full.code).toBe(1)
    const parent = full.report.routes[0]!.parents[0]!
    expect(parent.verdict).toBe('failed')
    expect(parent.conditions?.find((c) => c.type === 'ResolvedRefs')?.reason).toBe(
      'BackendNotFound'
    )
    expect(full.report.prediction.source).toMatchObject({
      kind: 'dump',
      assumedComplete: ['GatewayClass', 'Gateway', 'Namespace', 'Service']
    })
    const text = await runCli(['predict', ...args], { cwd: dir })
    expect(text.stdout).toContain(
      'Taken to list in full every kind it holds some of: GatewayClass, Gateway, Namespace, Service'
    )

    const partial = await predictJson([...args, '--partial-dump'])
    expect(partial.code).toBe(0)
    expect(partial.report.routes[0]!.verdict).toBe('unknown')
    expect(partial.report.prediction.source).toMatchObject({ kind: 'dump', partial: true })
    expect(partial.report.prediction.source.assumedComplete).toBeUndefined()
  })

  it('unknown passes, unless --strict', async () => {
    await write('unknown.yaml', [
      httpRoute('shop', 'cart', { parentRefs: [EDGE], backendRefs: [{ name: 'cart', port: 8080 }] })
    ])
    const loose = await predictJson(['--manifests', 'unknown.yaml', '--from-file', 'kubectl.yaml'])
    expect(loose.report.verdict).toBe('unknown')
    expect(loose.code).toBe(0)
    const strict = await predictJson([
      '--manifests',
      'unknown.yaml',
      '--from-file',
      'kubectl.yaml',
      '--strict'
    ])
    expect(strict.code).toBe(1)
  })

  it('reads rendered manifests from stdin', async () => {
    const yaml = stringify(
      httpRoute('app', 'web', { parentRefs: [EDGE], backendRefs: [{ name: 'web', port: 80 }] })
    )
    const { code, report } = await predictJson(
      ['--manifests', '-', '--from-file', 'dump.yaml'],
      yaml
    )
    expect(code).toBe(0)
    expect(report.routes[0]!.source?.file).toBe('stdin')
  })

  it('bad input is exit 2 naming the file and line, before any cluster is asked', async () => {
    await writeFile(file('broken.yaml'), 'kind: HTTPRoute\nmetadata: [unclosed\n')
    const { code, stdout, stderr } = await runCli(
      // no --from-file and no kubeconfig: the manifests are read first, so this never reaches a cluster
      ['predict', '--manifests', 'broken.yaml', '--kubeconfig', 'no-such-kubeconfig'],
      { cwd: dir }
    )
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toMatch(
      /^route-gate: broken\.yaml document 1 \(line \d+, column \d+\): invalid YAML/
    )
  })

  it('nothing to predict without manifests; predict takes no --routes', async () => {
    const none = await runCli(['predict', '--from-file', 'dump.yaml'], { cwd: dir })
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/Nothing to predict: set manifests/)
    const routes = await runCli(['predict', '--routes', 'httproute/web'], { cwd: dir })
    expect(routes.code).toBe(2)
    expect(routes.stderr).toMatch(/--routes belongs to route-gate check/)
  })

  it('markdown output is the job summary, headed as a prediction', async () => {
    const { stdout } = await runCli(
      ['predict', '--manifests', 'bad.yaml', '--from-file', 'dump.yaml', '-o', 'markdown'],
      { cwd: dir }
    )
    expect(stdout).toMatch(/^## ❌ route-gate: 1 of 3 Routes predicted ready/)
    expect(stdout).toContain('Predicted before anything is applied')
  })
})

describe('route-gate predict --timeout', () => {
  it('stops at its deadline with exit 3 and one line that says how far it got, no report', async () => {
    const routes = Array.from({ length: 3000 }, (_, i) =>
      httpRoute('app', `web-${i}`, { parentRefs: [EDGE], backendRefs: [{ name: 'web', port: 80 }] })
    )
    await write('many.yaml', routes)
    const { code, stdout, stderr } = await runCli(
      ['predict', '--manifests', 'many.yaml', '--from-file', 'dump.yaml', '--timeout', '1ms'],
      { cwd: dir }
    )
    expect(code).toBe(3)
    expect(stdout).toBe('')
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /predict did not finish within its timeout of 1ms \((calibrating|\d+ of 3000 Routes predicted)/
    )
    expect(lines[0]).toMatch(/raise timeout, or predict fewer manifests at once$/)
  })

  it('takes 2m when no timeout is given, and the timeout given otherwise', async () => {
    const { parseSettings } = await import('../../src/inputs/parse.ts')
    const read = (values: Record<string, string>) => (name: string) => values[name]
    expect(parseSettings(read({ manifests: 'a.yaml' }), 'predict').timeoutMs).toBe(120_000)
    expect(parseSettings(read({ mode: 'predict', manifests: 'a.yaml' })).timeoutMs).toBe(120_000)
    expect(parseSettings(read({ manifests: 'a.yaml', timeout: '10s' }), 'predict').timeoutMs).toBe(
      10_000
    )
    expect(parseSettings(read({ routes: 'httproute/web' }), 'gate').timeoutMs).toBe(300_000)
  })
})
