// check is read-only and apply applies, on the real API server with Contour writing status, through
// the committed CLI bundle, with the kubeconfig given as a path (--kubeconfig) as kubectl takes it.
import { describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { runCli } from '../helpers/action.ts'
import { clusterEnv, getRoute, kube, testNamespace } from '../helpers/cluster.ts'
import { gate, logOf, reportOf } from '../helpers/gate.ts'
import { contourRoute, manifestDir } from '../helpers/manifest-files.ts'
import { serviceYaml } from '../helpers/netns.ts'
import { expectValidReport } from '../helpers/schema.ts'

async function exists(ns: string, name: string): Promise<boolean> {
  return getRoute('HTTPRoute', ns, name).then(
    () => true,
    () => false
  )
}

describe('check is read-only, apply applies', () => {
  it('check --manifests gates the Routes the files name and creates nothing; apply creates and gates them', async () => {
    const ns = await testNamespace('verbs')
    const dir = await manifestDir({
      'app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web')}`
    })
    const common = ['--manifests', 'app.yaml', '-n', ns, '--kubeconfig', clusterEnv().kubeconfig]

    const checked = await runCli(['check', ...common, '--timeout', '3s', '-o', 'json'], {
      cwd: dir
    })
    expect(checked.code, checked.stderr).toBe(1)
    const notFound = JSON.parse(checked.stdout) as Report
    expectValidReport(notFound)
    expect(notFound.routes[0]?.problems?.[0]).toMatchObject({ reason: 'RouteNotFound' })
    expect(checked.stderr).toContain(
      'route-gate: check never writes to the cluster, so Routes only in --manifests are not found; route-gate apply creates them'
    )
    expect(await exists(ns, 'web')).toBe(false)
    const services = await kube().core.listNamespacedService({ namespace: ns })
    expect(services.items).toEqual([])

    const applied = await runCli(['apply', ...common, '--timeout', '60s', '-o', 'json'], {
      cwd: dir
    })
    expect(applied.code, applied.stderr).toBe(0)
    expect((JSON.parse(applied.stdout) as Report).verdict).toBe('ready')
    expect(await exists(ns, 'web')).toBe(true)

    // now that it exists, the read-only check finds it and judges it like apply did
    const again = await runCli(['check', ...common, '--timeout', '60s', '-o', 'yaml'], {
      cwd: dir
    })
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/^verdict: ready$/m)
    expect(again.stderr).not.toContain('route-gate apply creates them')
  })

  it("the Action's mode: check locates the Routes of its manifests and creates nothing; mode: apply applies them", async () => {
    const ns = await testNamespace('verbs-action')
    const dir = await manifestDir({
      'app.yaml': `${serviceYaml('web')}---\n${contourRoute(ns, 'web', 'web')}`
    })
    const inputs = { manifests: 'app.yaml', namespace: ns }

    const checked = await gate({ ...inputs, mode: 'check', timeout: '3s' }, dir)
    expect(checked.code, logOf(checked)).toBe(1)
    expect(checked.outputs.verdict).toBe('failed')
    const notFound = await reportOf(checked)
    expect(notFound.routes[0]?.problems?.[0]).toMatchObject({ reason: 'RouteNotFound' })
    expect(await exists(ns, 'web')).toBe(false)
    expect((await kube().core.listNamespacedService({ namespace: ns })).items).toEqual([])

    const applied = await gate({ ...inputs, mode: 'apply', timeout: '60s' }, dir)
    expect(applied.code, logOf(applied)).toBe(0)
    expect(applied.outputs.verdict).toBe('ready')
    expect(await exists(ns, 'web')).toBe(true)
  })
})
