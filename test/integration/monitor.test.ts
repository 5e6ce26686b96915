// Monitor mode against the real control plane: a ready Route, then the Gateway's listener is
// restricted (allowedRoutes from Same) and Contour flips the Route to Accepted=False. A running
// watch-duration monitor (the committed dist/cli.js) must log the degradation within 5 seconds and
// exit 1; the Action (dist/index.js) keeps the tracking issue on a loopback GitHub API meanwhile.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../src/model/types.ts'
import { REPO, runAction } from '../helpers/action.ts'
import {
  applyYaml,
  clusterEnv,
  createService,
  gatewayParentRef,
  kube,
  parentCondition,
  testHostname,
  testNamespace,
  waitForRouteCondition
} from '../helpers/cluster.ts'
import { FakeGitHub } from '../helpers/fake-github.ts'
import { expectValidReport } from '../helpers/schema.ts'

const GATEWAY_GROUP = 'gateway.networking.k8s.io'

interface Listener {
  name: string
  allowedRoutes?: { namespaces?: { from?: string } }
}

/** Sets `from` on the shared Contour Gateway's `http` listener (read, change, replace on conflict). */
async function setHttpListenerFrom(from: 'All' | 'Same'): Promise<void> {
  const { namespace, name } = clusterEnv().gateway
  const coordinates = { group: GATEWAY_GROUP, version: 'v1', namespace, plural: 'gateways', name }
  for (let attempt = 1; ; attempt++) {
    const gateway = (await kube().custom.getNamespacedCustomObject(coordinates)) as {
      spec: { listeners: Listener[] }
    }
    const http = gateway.spec.listeners.find((l) => l.name === 'http')!
    http.allowedRoutes = { ...http.allowedRoutes, namespaces: { from } }
    try {
      await kube().custom.replaceNamespacedCustomObject({ ...coordinates, body: gateway })
      return
    } catch (error) {
      if (attempt >= 5) throw error
      await sleep(200)
    }
  }
}

interface Watcher {
  lines: { at: number; text: string }[]
  exit: Promise<{ code: number | null; stdout: string }>
}

/** Starts dist/cli.js and collects its stderr lines with the time each arrived. */
function startCli(args: string[]): Watcher {
  const child = spawn(process.execPath, [path.join(REPO, 'dist', 'cli.js'), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, KUBECONFIG: clusterEnv().kubeconfig },
    cwd: REPO
  })
  const lines: Watcher['lines'] = []
  let partial = ''
  let stdout = ''
  child.stderr.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n')
    partial = parts.pop() ?? ''
    for (const text of parts) lines.push({ at: Date.now(), text })
  })
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  const exit = new Promise<{ code: number | null; stdout: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout }))
  )
  return { lines, exit }
}

async function waitForLine(
  w: Watcher,
  pattern: RegExp,
  timeoutMs: number
): Promise<{ at: number; text: string }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = w.lines.find((l) => pattern.test(l.text))
    if (found) return found
    if (Date.now() > deadline) {
      throw new Error(
        `no line matching ${pattern} after ${timeoutMs} ms:\n${w.lines.map((l) => l.text).join('\n')}`
      )
    }
    await sleep(50)
  }
}

describe('monitor against the real control plane', () => {
  let github: FakeGitHub
  beforeAll(async () => {
    github = new FakeGitHub()
    await github.start()
  })
  afterAll(() => github.stop())

  it('reports a Route that degrades when its listener is restricted, as it happens', async () => {
    const ns = await testNamespace('monitor')
    await createService(ns, 'web', [8080])
    await applyYaml(
      `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - ${JSON.stringify(gatewayParentRef('contour', 'http'))}
  hostnames: [${testHostname(ns)}]
  rules:
  - backendRefs:
    - name: web
      port: 8080
`,
      ns
    )
    const accepted = (status: string) => (r: Parameters<typeof parentCondition>[0]) =>
      parentCondition(r, clusterEnv().gateway.name, 'Accepted')?.status === status
    await waitForRouteCondition('HTTPRoute', ns, 'web', accepted('True'))

    const monitorAction = () =>
      runAction(
        { mode: 'monitor', namespace: ns, 'cluster-name': ns, 'github-token': 'ghs_test' },
        {
          env: {
            KUBECONFIG: clusterEnv().kubeconfig,
            GITHUB_REPOSITORY: 'acme/shop',
            GITHUB_API_URL: github.url,
            GITHUB_RUN_ID: '1'
          }
        }
      )

    // first run: all ready, the baseline; the issue is created to hold the state, and closed
    const baseline = await monitorAction()
    expect(baseline.code, baseline.stdout).toBe(0)
    expect(github.issues).toHaveLength(1)
    expect(github.issues[0]).toMatchObject({ state: 'closed' })

    const watcher = startCli([
      'monitor',
      '--namespace',
      ns,
      '--watch-duration',
      '20s',
      '--format',
      'json'
    ])
    try {
      await waitForLine(watcher, /^Watching for 20s/, 15_000)
      await setHttpListenerFrom('Same')
      await waitForRouteCondition('HTTPRoute', ns, 'web', accepted('False'), 15_000)
      const flipped = Date.now()
      const line = await waitForLine(watcher, /DEGRADED HTTPRoute/, 10_000)
      expect(line.text).toMatch(
        new RegExp(
          `Z DEGRADED HTTPRoute ${ns}/web: ready → failed \\(Accepted=NotAllowedByListeners\\)$`
        )
      )
      expect(line.at - flipped).toBeLessThan(5000)

      // the Action, meanwhile: the issue reopens with the failing Route and a comment says so
      const degraded = await monitorAction()
      expect(degraded.code).toBe(1)
      expect(degraded.stdout).toContain(
        `::error::route-gate: 1 Route degraded: HTTPRoute ${ns}/web`
      )
      expect(github.issues).toHaveLength(1)
      expect(github.issues[0]).toMatchObject({ state: 'open', state_reason: 'reopened' })
      expect(github.issues[0]!.body).toContain('NotAllowedByListeners')
      expect(github.comments.at(-1)!.body).toContain(`**HTTPRoute ${ns}/web**: ready → failed`)
    } finally {
      await setHttpListenerFrom('All')
    }
    await waitForRouteCondition('HTTPRoute', ns, 'web', accepted('True'), 15_000)

    const { code, stdout } = await watcher.exit
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as Report
    expectValidReport(report)
    expect(report.mode).toBe('monitor')
    expect(report.transitions?.[0]).toEqual({
      kind: 'HTTPRoute',
      namespace: ns,
      name: 'web',
      from: 'ready',
      to: 'failed'
    })

    // recovered: the issue closes, with a comment
    const recovered = await monitorAction()
    expect(recovered.code).toBe(0)
    expect(github.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' })
    expect(github.comments.at(-1)!.body).toContain(`**HTTPRoute ${ns}/web**: failed → ready`)
    expect(
      github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/issues'))
    ).toHaveLength(1)
  })
})
