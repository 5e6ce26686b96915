// Least privilege on the real control plane: a user with a client certificate signed by the cluster
// CA, bound to exactly the ClusterRole the README prints (read from README.md, so the document is what
// is tested), runs the Action bundle with the kubeconfig as its input. The gate works; without one
// diagnosis read it still judges and says what it could not read; without list on Routes it exits 3
// naming verb and resource; apply needs the README's extra rules and applies nothing without them.
// Every run is scanned: the private key never appears in the log, summary, outputs or report file.
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  AuthorizationV1Api,
  RbacAuthorizationV1Api,
  type V1PolicyRule
} from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { Report } from '../../src/model/types.ts'
import { REPO, runAction, runCli, type ActionResult } from '../helpers/action.ts'
import { clusterEnv, kube, testHostname, testNamespace } from '../helpers/cluster.ts'
import { statusCode } from '../cluster/fixtures.ts'
import { certKubeconfig, clusterPki, signedByClusterCa } from '../helpers/fault-proxy.ts'
import { createOtherRoute, writeState } from '../helpers/route-states.ts'

/** The two RBAC blocks of the README: the reader ClusterRole and the extra rules for apply. */
async function readmeRbac(): Promise<{ reader: V1PolicyRule[]; apply: V1PolicyRule[] }> {
  const readme = await readFile(`${REPO}/README.md`, 'utf8')
  const section = readme.slice(readme.indexOf('## Required RBAC'))
  const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const role = parse(blocks[0]!) as { kind: string; rules: V1PolicyRule[] }
  expect(role.kind).toBe('ClusterRole')
  return { reader: role.rules, apply: parse(blocks[1]!) as V1PolicyRule[] }
}

const rbac = (): RbacAuthorizationV1Api => kube().config.makeApiClient(RbacAuthorizationV1Api)

interface User {
  name: string
  kubeconfig: string
  key: string
}

/** A user bound (ClusterRoleBinding) to a ClusterRole with exactly `rules`. */
async function userWith(rules: V1PolicyRule[]): Promise<User> {
  const name = `route-gate-ci-${randomBytes(4).toString('hex')}`
  await rbac().createClusterRole({ body: { metadata: { name }, rules } })
  await rbac().createClusterRoleBinding({
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }]
    }
  })
  const pki = clusterPki(clusterEnv())
  const { cert, key } = signedByClusterCa(
    pki,
    `/CN=${name}`,
    'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n'
  )
  await untilAuthorized(name, rules)
  return {
    name,
    kubeconfig: certKubeconfig(clusterEnv().apiServer, pki.ca, { name, cert, key }),
    key: key.toString('utf8')
  }
}

/**
 * The authorizer learns new bindings from its informer, a moment after they are created: asks it
 * (SubjectAccessReview, the same authorizer the user's requests meet) until it grants the user the
 * first verb of every rule. Polls; the test's own timeout bounds it.
 */
async function untilAuthorized(user: string, rules: V1PolicyRule[]): Promise<void> {
  const api = kube().config.makeApiClient(AuthorizationV1Api)
  const checks = rules.flatMap((rule) =>
    (rule.resources ?? []).map((name) => {
      const [resource, subresource] = name.split('/')
      return { group: rule.apiGroups?.[0] ?? '', resource, subresource, verb: rule.verbs[0]! }
    })
  )
  for (;;) {
    const reviews = await Promise.all(
      checks.map((resourceAttributes) =>
        api.createSubjectAccessReview({ body: { spec: { user, resourceAttributes } } })
      )
    )
    if (reviews.every((review) => review.status?.allowed === true)) return
    await sleep(50)
  }
}

/** `rules` without `resource` (and dropped rules that end up with no resource). */
function without(rules: V1PolicyRule[], resource: string): V1PolicyRule[] {
  return rules
    .map((rule) => ({ ...rule, resources: rule.resources?.filter((r) => r !== resource) }))
    .filter((rule) => (rule.resources ?? []).length > 0)
}

async function gateAs(user: User, inputs: Record<string, string>): Promise<ActionResult> {
  const result = await runAction({ ...inputs, kubeconfig: user.kubeconfig }, { cwd: REPO })
  await expectNoSecret(result, user)
  return result
}

/** The private key (PEM body and its base64 in the kubeconfig) appears nowhere it could be read. */
async function expectNoSecret(result: ActionResult, user: User): Promise<void> {
  const keyBody = user.key
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .join('')
  const keyData = Buffer.from(user.key).toString('base64')
  const reportFile = result.outputs['report-file']
  const places = [
    result.stderr,
    result.summary,
    JSON.stringify(result.outputs),
    reportFile ? await readFile(reportFile, 'utf8') : ''
  ]
  // the log holds them only inside ::add-mask:: commands, which the runner consumes
  places.push(
    result.stdout
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n')
  )
  for (const place of places) {
    expect(place).not.toContain(keyBody.slice(0, 40))
    expect(place).not.toContain(keyData.slice(0, 40))
  }
  expect(result.stdout).toContain(`::add-mask::${keyData}`)
  if (reportFile) expect((await stat(reportFile)).mode & 0o777).toBe(0o600)
}

async function readyRoute(): Promise<string> {
  const ns = await testNamespace('rbac')
  const generation = await createOtherRoute(ns, 'web')
  await writeState(ns, 'web', 'ready', generation)
  return ns
}

describe('least privilege: the README roles on the real control plane', () => {
  it('the gate-only ClusterRole is enough to gate, with nothing left unread', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(reader)
    const ns = await readyRoute()
    const result = await gateAs(user, { routes: `httproute/${ns}/web`, timeout: '30s' })
    expect(result.code, result.stdout).toBe(0)
    const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
    expect(report.notes ?? []).not.toContainEqual(expect.stringMatching(/Could not read/))
  })

  it('without services, diagnosis degrades and says what it could not read', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(without(reader, 'services'))
    const ns = await testNamespace('rbac')
    const generation = await createOtherRoute(ns, 'web')
    await writeState(ns, 'web', 'failed', generation)
    const result = await gateAs(user, { routes: `httproute/${ns}/web`, timeout: '3s' })
    expect(result.code, result.stdout).toBe(1)
    const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
    expect(report.verdict).toBe('failed')
    expect(report.notes).toContain(`Could not read services in namespace ${ns}: forbidden (list)`)
    expect(result.summary).toContain(`Could not read services in namespace ${ns}`)
    const reasons = report.routes[0]?.parents[0]?.problems.map((p) => p.reason)
    expect(reasons).toContain('BackendNotFound')
  })

  it('without gatewayclasses, the owner falls back and the report says so', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(without(reader, 'gatewayclasses'))
    const ns = await readyRoute()
    const result = await gateAs(user, { routes: `httproute/${ns}/web`, timeout: '30s' })
    expect(result.code, result.stdout).toBe(0)
    const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
    expect(report.notes).toContain('Could not read gatewayclasses: forbidden (list)')
  })

  it('without listenersets, the gate still judges and says what it could not read', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(without(reader, 'listenersets'))
    const ns = await readyRoute()
    const result = await gateAs(user, { routes: `httproute/${ns}/web`, timeout: '30s' })
    expect(result.code, result.stdout).toBe(0)
    const report = JSON.parse(await readFile(result.outputs['report-file']!, 'utf8')) as Report
    expect(report.notes).toContain(
      'Could not read listenersets in all namespaces: forbidden (list)'
    )
  })

  it('without list and watch on httproutes, exit 3 naming the verb and the resource', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(without(reader, 'httproutes'))
    const ns = await readyRoute()
    const result = await gateAs(user, { routes: `httproute/${ns}/web`, timeout: '30s' })
    expect(result.code).toBe(3)
    expect(result.stdout).toContain(
      `::error::route-gate: forbidden: cannot list httproutes in namespace ${ns} (user ${user.name}) on ${clusterEnv().apiServer} (context test)`
    )
  })

  it('with list but without watch on httproutes, exit 3 naming watch', async () => {
    const { reader } = await readmeRbac()
    const listOnly: V1PolicyRule = {
      apiGroups: ['gateway.networking.k8s.io'],
      resources: ['httproutes'],
      verbs: ['get', 'list']
    }
    const user = await userWith([...without(reader, 'httproutes'), listOnly])
    const ns = await testNamespace('rbac')
    const generation = await createOtherRoute(ns, 'web')
    await writeState(ns, 'web', 'stale', generation)
    const result = await gateAs(user, { routes: `httproute/${ns}/web`, timeout: '90s' })
    expect(result.code).toBe(3)
    // a refusal is final: the gate says so at once, well before its deadline, never after it
    expect(result.stdout).not.toContain('deadline')
    expect(result.elapsedMs).toBeLessThan(90_000)
    expect(result.stdout).toMatch(
      new RegExp(
        `::error::route-gate: forbidden: cannot watch httproutes in namespace ${ns}\\b.* on ${clusterEnv().apiServer.replaceAll('.', '\\.')} \\(context test\\)`
      )
    )
  })

  it('apply works with the README apply rules, and applies nothing without them', async () => {
    const { reader, apply } = await readmeRbac()
    const ns = await testNamespace('rbac-apply')
    const manifest = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports: [{name: http, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs: [{name: ${clusterEnv().gateway.name}, namespace: ${clusterEnv().gateway.namespace}}]
  hostnames: [${testHostname(ns)}]
  rules:
  - backendRefs: [{name: web, port: 8080}]
`
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-rbac-'))
    await writeFile(path.join(dir, 'app.yaml'), manifest)

    const readerOnly = await userWith(reader)
    const refused = await runAction(
      { manifests: 'app.yaml', namespace: ns, timeout: '30s', kubeconfig: readerOnly.kubeconfig },
      { cwd: dir }
    )
    await expectNoSecret(refused, readerOnly)
    expect(refused.code).toBe(3)
    expect(refused.stdout).toContain(
      `::error::route-gate: forbidden: cannot patch services in namespace ${ns} (user ${readerOnly.name}) on ${clusterEnv().apiServer} (context test)`
    )
    const service = await kube()
      .core.readNamespacedService({ namespace: ns, name: 'web' })
      .then(
        () => 200,
        (error: unknown) => statusCode(error)
      )
    expect(service).toBe(404)

    const applier = await userWith([...reader, ...apply])
    const applied = await runAction(
      { manifests: 'app.yaml', namespace: ns, timeout: '60s', kubeconfig: applier.kubeconfig },
      { cwd: dir }
    )
    await expectNoSecret(applied, applier)
    expect(applied.code, applied.stdout).toBe(0)
    expect(applied.outputs.verdict).toBe('ready')
  })
})

/** The reader rules with get and list alone: no watch, and no verb that writes. */
function readOnly(rules: V1PolicyRule[]): V1PolicyRule[] {
  return rules.map((rule) => ({
    ...rule,
    verbs: rule.verbs.filter((v) => v === 'get' || v === 'list')
  }))
}

async function dumpAs(user: User): Promise<{ code: number; text: string; stderr: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-dump-'))
  const kubeconfig = path.join(dir, 'kubeconfig')
  await writeFile(kubeconfig, user.kubeconfig, { mode: 0o600 })
  const out = path.join(dir, 'dump.yaml')
  const result = await runCli(['dump', '--kubeconfig', kubeconfig, '-o', out], { cwd: REPO })
  const text = result.code === 0 ? await readFile(out, 'utf8') : ''
  return { code: result.code ?? -1, text, stderr: result.stderr }
}

interface DumpFile {
  header: { cluster: string; context: string; forbidden: string[]; complete: string[] }
  items: {
    kind: string
    metadata: { name: string; namespace?: string; labels?: unknown }
    status?: unknown
  }[]
}

function readDump(text: string): DumpFile {
  const [first, ...rest] = text.split('\n')
  const list = parse(rest.join('\n')) as { items: DumpFile['items'] }
  return { header: JSON.parse(first!.replace('# route-gate dump ', '')), items: list.items }
}

describe('dump: read-only, on the real control plane', () => {
  it('get and list on the reader resources are enough; check --from-file reads the dump', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(readOnly(reader))
    const ns = await testNamespace('rbac', { team: 'dump' })
    await writeState(ns, 'web', 'ready', await createOtherRoute(ns, 'web'))
    await kube().core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'never-dumped' }, stringData: { token: 'x' } }
    })
    const { code, text, stderr } = await dumpAs(user)
    expect(code, stderr).toBe(0)
    expect(text).not.toContain(user.key.split('\n')[1]!.slice(0, 40))
    const { header, items } = readDump(text)
    expect(header).toMatchObject({
      cluster: clusterEnv().apiServer,
      context: 'test',
      forbidden: []
    })
    expect(header.complete).toEqual(
      expect.arrayContaining(['Gateway', 'HTTPRoute', 'Service', 'Namespace'])
    )
    const here = items.filter((i) => i.metadata.namespace === ns || i.metadata.name === ns)
    expect(here.map((i) => i.kind).sort()).toEqual(['HTTPRoute', 'Namespace'])
    expect(here.find((i) => i.kind === 'Namespace')?.metadata.labels).toMatchObject({
      team: 'dump'
    })
    expect(here.find((i) => i.kind === 'HTTPRoute')?.status).toBeDefined()
    expect(items.some((i) => i.kind === 'Secret')).toBe(false)
    expect(items.some((i) => i.kind === 'GatewayClass')).toBe(true)

    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-dump-'))
    await writeFile(path.join(dir, 'dump.yaml'), text)
    const check = await runCli(['check', '--from-file', 'dump.yaml', '-n', ns, '-o', 'json'], {
      cwd: dir
    })
    expect(check.code, check.stderr).toBe(0)
    const report = JSON.parse(check.stdout) as Report
    expect(report).toMatchObject({ mode: 'snapshot', verdict: 'ready' })
    expect(report.routes.map((r) => r.name)).toEqual(['web'])
  })

  it('without list on services, the dump records what it could not read and that Services are incomplete', async () => {
    const { reader } = await readmeRbac()
    const user = await userWith(readOnly(without(reader, 'services')))
    const ns = await testNamespace('rbac')
    const { code, text, stderr } = await dumpAs(user)
    expect(code, stderr).toBe(0)
    const { header } = readDump(text)
    expect(header.forbidden).toContain('services in all namespaces: forbidden (list)')
    expect(header.forbidden).toContain(`services in namespace ${ns}: forbidden (list)`)
    expect(header.complete).not.toContain('Service')
    expect(header.complete).toContain('HTTPRoute')
  })
})
