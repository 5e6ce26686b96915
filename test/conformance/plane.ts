// What the recorder does on the test plane's loopback API server: server-side apply and delete, the
// objects the conformance suite makes at run time (certificates) and those a kube-controller-manager
// would (EndpointSlices), one Contour per Gateway, and Envoy Gateway's data plane statuses.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { PatchStrategy, type KubernetesObject } from '@kubernetes/client-node'
import { build } from 'esbuild'
import { parse } from 'yaml'
import { playEnvoyDataPlane } from '../cluster/controllers.ts'
import { REPO_ROOT, type ClusterEnv } from '../cluster/env.ts'
import { statusCode } from '../cluster/fixtures.ts'
import { makeCa, signCertificate } from '../cluster/pki.ts'
import { freePorts, startDetached, stopProcess, waitHealthy } from '../cluster/processes.ts'
import { kube, serverSideApply, UNSERVED_ENDPOINT } from '../helpers/cluster.ts'
import { readDumpHeader, type DumpHeader } from '../../src/read/dump-header.ts'
import { BUILDS } from '../../scripts/bundle-options.ts'
import { objectKey, type Manifest } from './source.ts'

const FIELD_MANAGER = 'route-gate-conformance'
const INFRA = 'gateway-conformance-infra'
const WEB = 'gateway-conformance-web-backend'
const APP = 'gateway-conformance-app-backend'

function errorText(error: unknown): string {
  const body = (error as { body?: unknown }).body
  if (typeof body === 'string') {
    try {
      return (JSON.parse(body) as { message?: string }).message ?? body
    } catch {
      return body
    }
  }
  return error instanceof Error ? error.message : String(error)
}

/** Server-side apply; the API server's refusal (CEL, schema) as text instead of a throw. */
export async function apply(object: Manifest): Promise<string | undefined> {
  try {
    await serverSideApply(object, FIELD_MANAGER)
    return undefined
  } catch (error) {
    return errorText(error)
  }
}

export async function read(object: Manifest): Promise<Manifest | undefined> {
  const { apiVersion, kind, metadata } = object
  try {
    const spec = {
      apiVersion,
      kind,
      metadata: { name: metadata.name, namespace: metadata.namespace }
    }
    return (await kube().objects.read(spec)) as unknown as Manifest
  } catch (error) {
    if (statusCode(error) === 404) return undefined
    throw error
  }
}

async function gone(objects: Manifest[], ms: number): Promise<Manifest[]> {
  const deadline = Date.now() + ms
  for (;;) {
    const left: Manifest[] = []
    for (const o of objects) if ((await read(o)) !== undefined) left.push(o)
    if (left.length === 0 || Date.now() > deadline) return left
    await sleep(200)
  }
}

/**
 * Deletes the objects (never Namespaces: without a namespace controller they stay Terminating) and
 * waits until they are gone. A finalizer nobody here removes would hold one forever; past the wait
 * it is dropped, as the missing controller would have done.
 */
export async function remove(objects: Manifest[]): Promise<void> {
  const targets = objects.filter((o) => o.kind !== 'Namespace')
  for (const o of targets) {
    try {
      await kube().objects.delete(o)
    } catch (error) {
      if (statusCode(error) !== 404) throw error
    }
  }
  const stuck = await gone(targets, 20_000)
  for (const o of stuck) {
    await kube().objects.patch(
      {
        apiVersion: o.apiVersion,
        kind: o.kind,
        // null, not []: a merge patch removes the field
        metadata: { name: o.metadata.name, namespace: o.metadata.namespace, finalizers: null }
      } as unknown as KubernetesObject,
      undefined,
      undefined,
      FIELD_MANAGER,
      undefined,
      PatchStrategy.MergePatch
    )
  }
  const left = await gone(stuck, 10_000)
  if (left.length > 0) throw new Error(`not deleted: ${left.map(objectKey).join(', ')}`)
}

/**
 * The certificates and CA bundles the suite creates in its set-up (suite.go) rather than in its
 * manifests: one throw-away CA signs a serving and a client certificate, and a second CA stands
 * for the mismatching one. Secrets never reach a dump.
 */
export function runtimeObjects(): Manifest[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-conformance-pki-'))
  const other = path.join(dir, 'other')
  try {
    makeCa(dir, '/CN=route-gate conformance CA')
    const names = ['*', '*.org', '*.wildcard.org', 'abc.example.com', 'other.example.com']
    const sans = [...names, 'tls.example.com'].map((n) => `DNS:${n}`)
    signCertificate(
      dir,
      'server',
      '/CN=conformance',
      `subjectAltName=${[...sans, 'URI:spiffe://abc.example.com/test-identity'].join(',')}\nextendedKeyUsage=serverAuth,clientAuth\n`
    )
    signCertificate(dir, 'client', '/CN=conformance-client', 'extendedKeyUsage=clientAuth\n')
    mkdirSync(other)
    makeCa(other, '/CN=route-gate conformance mismatching CA')
    const file = (name: string): string => readFileSync(path.join(dir, name), 'utf8')
    const tls = (namespace: string, name: string, which: 'server' | 'client'): Manifest => ({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name, namespace },
      stringData: { 'tls.crt': file(`${which}.crt`), 'tls.key': file(`${which}.key`) }
    })
    const ca = (namespace: string, name: string, crt = file('ca.crt')): Manifest => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
      data: { 'ca.crt': crt }
    })
    return [
      tls(WEB, 'certificate', 'server'),
      tls(INFRA, 'tls-validity-checks-certificate', 'server'),
      tls(INFRA, 'tls-validity-checks-client-certificate', 'client'),
      tls(INFRA, 'tls-validity-checks-per-port-client-certificate', 'client'),
      tls(INFRA, 'tls-checks-certificate', 'server'),
      tls(INFRA, 'tls-checks-client-certificate', 'client'),
      tls(INFRA, 'tls-passthrough-checks-certificate', 'server'),
      tls(APP, 'tls-passthrough-checks-certificate', 'server'),
      tls(INFRA, 'tls-terminate-checks-certificate', 'server'),
      ca(WEB, 'web-backend-cm'),
      ca(INFRA, 'tls-validity-checks-ca-certificate'),
      ca(INFRA, 'tls-validity-checks-per-port-ca-certificate'),
      ca(INFRA, 'tls-checks-ca-certificate'),
      ca(INFRA, 'mismatch-ca-certificate', readFileSync(path.join(other, 'ca.crt'), 'utf8'))
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

interface ServicePort {
  name?: string
  port: number
  targetPort?: number | string
  protocol?: string
  appProtocol?: string
}

/**
 * The EndpointSlice the endpoint controller would write for a Service with a selector once its
 * Pods are ready (no kubelet runs them here), pointing at TEST-NET-1: Traefik calls a backend
 * without one BackendNotFound, which in a real conformance run it never is.
 */
export function endpointSlices(objects: Manifest[]): Manifest[] {
  return objects
    .filter((o) => o.kind === 'Service' && (o.spec?.selector as object | undefined) !== undefined)
    .map((service) => ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `${service.metadata.name}-conformance`,
        namespace: service.metadata.namespace,
        labels: { 'kubernetes.io/service-name': service.metadata.name }
      },
      addressType: 'IPv4',
      endpoints: [{ addresses: [UNSERVED_ENDPOINT], conditions: { ready: true } }],
      ports: ((service.spec?.ports ?? []) as ServicePort[]).map((p) => ({
        ...(p.name === undefined ? {} : { name: p.name }),
        port: typeof p.targetPort === 'number' ? p.targetPort : p.port,
        protocol: p.protocol ?? 'TCP',
        ...(p.appProtocol === undefined ? {} : { appProtocol: p.appProtocol })
      }))
    }))
}

export interface ContourInstance {
  pid: number
  binary: string
  log: string
  dir: string
  gateway: string
}

/**
 * Contour serves exactly the Gateway its config names (static provisioning; the plane's own Contour
 * serves gw-system/contour). Its provisioner runs one Contour per Gateway; so does the recorder, with
 * the plane's Contour flags, every port on loopback.
 */
export async function startContour(
  env: ClusterEnv,
  gateway: { namespace: string; name: string }
): Promise<ContourInstance> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-conformance-contour-'))
  const config = path.join(dir, 'contour.yaml')
  writeFileSync(
    config,
    `gateway:\n  gatewayRef:\n    namespace: ${gateway.namespace}\n    name: ${gateway.name}\n`
  )
  const [xds, metrics, health, debug] = await freePorts(4)
  const binary = path.join(env.binDir, 'contour')
  const log = path.join(dir, 'contour.log')
  const args = [
    'serve',
    `--config-path=${config}`,
    `--kubeconfig=${env.kubeconfig}`,
    '--insecure',
    '--disable-leader-election',
    '--kubernetes-client-qps=200',
    '--kubernetes-client-burst=400',
    '--xds-address=127.0.0.1',
    `--xds-port=${xds}`,
    '--http-address=127.0.0.1',
    `--http-port=${metrics}`,
    '--health-address=127.0.0.1',
    `--health-port=${health}`,
    '--debug-http-address=127.0.0.1',
    `--debug-http-port=${debug}`
  ]
  const pid = startDetached(binary, args, log)
  const instance = { pid, binary, log, dir, gateway: `${gateway.namespace}/${gateway.name}` }
  await waitHealthy('contour', { url: `http://127.0.0.1:${health}/healthz` }, instance, 60_000)
  return instance
}

export async function stopContour(instance: ContourInstance): Promise<void> {
  await stopProcess(instance.pid, instance.binary)
  rmSync(instance.dir, { recursive: true, force: true })
}

/**
 * Envoy Gateway sets a Gateway Programmed once its Envoy Service has an address and its Deployment
 * available replicas; the plane plays those controllers for its own Gateway, the recorder for each
 * conformance Gateway. A Gateway it provisions nothing for (refused) is left as it is.
 */
export async function playEnvoy(gateways: { namespace: string; name: string }[]): Promise<void> {
  await Promise.all(
    gateways.map((g) =>
      playEnvoyDataPlane(
        kube().config,
        { ...g, gatewayClass: '', controllerName: '', listeners: [] },
        5_000
      ).catch(() => {})
    )
  )
}

const run = promisify(execFile)

export interface Dump {
  header: DumpHeader
  objects: Manifest[]
}

/**
 * The CLI as `npm run bundle` builds it, into a directory of the recorder's own: dist/ is rebuilt
 * (emptied first) whenever src changes, which would pull it from under a recording that takes most
 * of an hour.
 */
export async function bundleCli(): Promise<string> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-conformance-cli-'))
  const cli = BUILDS.find((b) => 'cli' in (b.entryPoints as Record<string, string>))
  if (cli === undefined) throw new Error('no CLI build in scripts/bundle-options.ts')
  await build({ ...cli, outdir, absWorkingDir: REPO_ROOT, logLevel: 'error' })
  return path.join(outdir, 'cli.js')
}

/** route-gate's own `dump`, so the moment carries its header and exactly what a user's dump holds. */
export async function dump(env: ClusterEnv, cli: string): Promise<Dump> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-conformance-dump-'))
  try {
    const file = path.join(dir, 'dump.yaml')
    await run(process.execPath, [cli, 'dump', '-o', file, '--kubeconfig', env.kubeconfig], {
      cwd: REPO_ROOT
    })
    const text = readFileSync(file, 'utf8')
    const header = readDumpHeader(text, file)
    if (header === undefined) throw new Error('route-gate dump wrote no header')
    const list = parse(text) as { items: Manifest[] }
    return { header, objects: list.items }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
