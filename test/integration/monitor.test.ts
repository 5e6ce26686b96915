// Monitor mode against the real control plane: a ready Route, then the Gateway's listener is
// restricted (allowedRoutes from Same) and Contour flips the Route to Accepted=False, then back. A
// running watch-duration monitor (the committed dist/cli.js) must log the degradation and the recovery
// as they happen, while its window is still open, and exit 1; the Action (dist/index.js) keeps the
// tracking issue on a loopback GitHub API meanwhile. Each step waits for what it needs, not for a
// fixed time.
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
/**
 * The monitor's window: a generous upper bound for the scenario below (a few seconds to half a minute
 * here), which waits for the window to close: the report comes at its end.
 */
const WINDOW_S = 90
/** Upper bound of one step (a log line, Contour's reaction); each returns as soon as it is met. */
const STEP_MS = 60_000

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
  /** set when the process has closed: a line seen before that was logged inside the window */
  exited: boolean
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
  const watcher: Watcher = {
    lines,
    exit: Promise.resolve({ code: null, stdout: '' }),
    exited: false
  }
  watcher.exit = new Promise((resolve) =>
    child.on('close', (code) => {
      watcher.exited = true
      resolve({ code, stdout })
    })
  )
  return watcher
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
    if (w.exited || Date.now() > deadline) {
      throw new Error(
        `no line matching ${pattern} (${w.exited ? 'exited' : `after ${timeoutMs} ms`}):\n${w.lines.map((l) => l.text).join('\n')}`
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
      `${WINDOW_S}s`,
      '--format',
      'json'
    ])
    try {
      // the window's baseline is read before this line: a flip from now on is a transition
      await waitForLine(watcher, /^Watching for/, STEP_MS)
      await setHttpListenerFrom('Same')
      await waitForRouteCondition('HTTPRoute', ns, 'web', accepted('False'), STEP_MS)
      const line = await waitForLine(watcher, /DEGRADED HTTPRoute/, STEP_MS)
      expect(line.text).toMatch(
        new RegExp(
          `Z DEGRADED HTTPRoute ${ns}/web: ready → failed \\(Accepted=NotAllowedByListeners\\)$`
        )
      )
      // as it happens: logged while the window is open, not only in the report at its end
      expect(watcher.exited).toBe(false)

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
    await waitForRouteCondition('HTTPRoute', ns, 'web', accepted('True'), STEP_MS)
    await waitForLine(
      watcher,
      new RegExp(`Z recovered HTTPRoute ${ns}/web: failed → ready$`),
      STEP_MS
    )
    expect(watcher.exited).toBe(false)

    const { code, stdout } = await watcher.exit
    expect(code).toBe(1)
    const report = JSON.parse(stdout) as Report
    expectValidReport(report)
    expect(report.mode).toBe('monitor')
    expect(report.transitions).toEqual([
      { kind: 'HTTPRoute', namespace: ns, name: 'web', from: 'ready', to: 'failed' },
      { kind: 'HTTPRoute', namespace: ns, name: 'web', from: 'failed', to: 'ready' }
    ])

    // recovered: the issue closes, with a comment
    const recovered = await monitorAction()
    expect(recovered.code).toBe(0)
    expect(github.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' })
    expect(github.comments.at(-1)!.body).toContain(`**HTTPRoute ${ns}/web**: failed → ready`)
    expect(
      github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/issues'))
    ).toHaveLength(1)
  }, 300_000)
})
