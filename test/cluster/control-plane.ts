// The real control plane for integration tests: etcd, kube-apiserver (no controller-manager, no
// kubelet), the Gateway API CRDs and three Gateway controllers out of cluster (Contour, Envoy
// Gateway, Traefik), each serving a Gateway of its own class. `up` leaves the processes running
// detached and records them in `.cluster/env.json`; `down` stops exactly those.
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { KubeConfig } from '@kubernetes/client-node'
import type { ClusterEnv, Component, ControllerInfo, GatewayInfo } from './env.ts'
import { COMPONENTS, DEFAULT_CLUSTER_DIR, envFilePath, readClusterEnv } from './env.ts'
import {
  CONTOUR_GATEWAY,
  ENVOY_GATEWAY_GATEWAY,
  OTHER_GATEWAY,
  createGateways,
  installCrds,
  traefikGateway,
  waitForGateway
} from './fixtures.ts'
import { playEnvoyDataPlane, startEnvoyGateway, startTraefik } from './controllers.ts'
import { kubeconfigYaml, makePki } from './pki.ts'
import type { Pki } from './pki.ts'
import {
  freePorts,
  isHealthy,
  isRunning,
  startDetached,
  stopProcess,
  waitHealthy
} from './processes.ts'

const BUILD_SCRIPT = fileURLToPath(new URL('build-binaries.sh', import.meta.url))
const BINARY: Record<Component, string> = {
  etcd: 'etcd',
  apiserver: 'kube-apiserver',
  contour: 'contour',
  'envoy-gateway': 'envoy-gateway',
  traefik: 'traefik'
}

export interface UpOptions {
  /** where env.json, kubeconfig, logs and data live; default `.cluster` at the repository root */
  clusterDir?: string
  /** progress lines; default stderr */
  log?: (line: string) => void
}

export interface StartedCluster extends ClusterEnv {
  /** true when a healthy cluster from env.json was reused rather than started */
  reused: boolean
}

function binaryPath(env: Pick<ClusterEnv, 'binDir'>, component: Component): string {
  return join(env.binDir, BINARY[component])
}

/** True when every recorded process is still ours and every health endpoint answers. */
export async function isLive(env: ClusterEnv): Promise<boolean> {
  const running = COMPONENTS.every((c) => isRunning(env.pids[c], binaryPath(env, c)))
  if (!running) return false
  const ca = readFileSync(join(env.dataDir, 'pki', 'ca.crt'), 'utf8')
  const probes = await Promise.all(
    COMPONENTS.map((c) => isHealthy({ url: env.health[c], ca: c === 'apiserver' ? ca : undefined }))
  )
  return probes.every(Boolean)
}

/** Runs the (idempotent, cached) build and returns the cache directory it prints last. */
function buildBinaries(log: (line: string) => void): string {
  log(`building or reusing binaries: ${BUILD_SCRIPT}`)
  const out = execFileSync('bash', [BUILD_SCRIPT, 'all'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const cacheDir = out.trim().split('\n').pop() ?? ''
  if (!existsSync(join(cacheDir, 'bin')))
    throw new Error(`build script printed no cache dir: ${out}`)
  log(`binaries and CRDs: ${cacheDir}`)
  return cacheDir
}

function etcdArgs(dataDir: string, clientPort: number, peerPort: number): string[] {
  const client = `http://127.0.0.1:${clientPort}`
  const peer = `http://127.0.0.1:${peerPort}`
  return [
    `--data-dir=${join(dataDir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--unsafe-no-fsync=true',
    '--log-level=warn'
  ]
}

function apiserverArgs(dataDir: string, pki: Pki, port: number, etcdPort: number): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${etcdPort}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${join(dataDir, 'apiserver')}`,
    `--tls-cert-file=${pki.apiserverCert}`,
    `--tls-private-key-file=${pki.apiserverKey}`,
    `--client-ca-file=${pki.caCert}`,
    `--service-account-issuer=https://127.0.0.1:${port}/`,
    `--service-account-key-file=${pki.saPub}`,
    `--service-account-signing-key-file=${pki.saKey}`,
    // a /24 filled after about three full integration runs on one long-lived plane (every fixture
    // Service takes an address); a /16 keeps 10.0.0.1, the `kubernetes` Service in the certificate
    '--service-cluster-ip-range=10.0.0.0/16',
    '--authorization-mode=RBAC',
    // no controller creates the `default` ServiceAccount, so admission would refuse every Pod
    '--disable-admission-plugins=ServiceAccount',
    '--allow-privileged=true',
    // stops the apiserver writing 127.0.0.1 into the `kubernetes` Endpoints (rejected as loopback)
    '--endpoint-reconciler-type=none'
  ]
}

interface ContourPorts {
  xds: number
  metrics: number
  health: number
  debug: number
}

function contourArgs(configFile: string, kubeconfig: string, ports: ContourPorts): string[] {
  return [
    'serve',
    `--config-path=${configFile}`,
    `--kubeconfig=${kubeconfig}`,
    '--insecure',
    '--disable-leader-election',
    // Contour rewrites every TCPRoute's status on each DAG rebuild; at client-go's default 5 QPS the
    // Routes that accumulate over a run (namespaces are never reclaimed) delay new status by seconds
    '--kubernetes-client-qps=200',
    '--kubernetes-client-burst=400',
    '--xds-address=127.0.0.1',
    `--xds-port=${ports.xds}`,
    '--http-address=127.0.0.1',
    `--http-port=${ports.metrics}`,
    '--health-address=127.0.0.1',
    `--health-port=${ports.health}`,
    '--debug-http-address=127.0.0.1',
    `--debug-http-port=${ports.debug}`
  ]
}

function crdFiles(cacheDir: string): string[] {
  const gatewayApi = join(cacheDir, 'crds', 'gateway-api')
  const files = readdirSync(gatewayApi)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(gatewayApi, f))
  const envoyGateway = join(cacheDir, 'crds', 'envoy-gateway')
  const egFiles = readdirSync(envoyGateway)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(envoyGateway, f))
  return [...files, join(cacheDir, 'crds', 'contour.yaml'), ...egFiles]
}

function controllerInfo(name: ControllerInfo['name'], gateway: GatewayInfo): ControllerInfo {
  return {
    name,
    controllerName: gateway.controllerName,
    gatewayClass: gateway.gatewayClass,
    gateway: { namespace: gateway.namespace, name: gateway.name },
    listeners: gateway.listeners
  }
}

async function stopAll(pids: Partial<Record<Component, number>>, binDir: string): Promise<void> {
  for (const component of COMPONENTS) {
    const pid = pids[component]
    if (pid !== undefined) await stopProcess(pid, binaryPath({ binDir }, component))
  }
}

/**
 * Serializes `up` across processes (two test runs started together would otherwise both start a
 * cluster in the same directory). The lock directory holds the owner's pid; a dead owner's lock is
 * taken over.
 */
async function withLock<T>(clusterDir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(clusterDir, 'up.lock')
  mkdirSync(clusterDir, { recursive: true })
  while (!tryLock(lock)) await sleep(500)
  try {
    return await fn()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock)
    writeFileSync(join(lock, 'pid'), String(process.pid))
    return true
  } catch {
    let owner = ''
    try {
      owner = readFileSync(join(lock, 'pid'), 'utf8')
    } catch {
      // released meanwhile, or the owner has not written its pid yet (or died before it did)
      const abandoned = existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 30_000
      if (abandoned) rmSync(lock, { recursive: true, force: true })
      return false
    }
    if (owner !== '' && !existsSync(`/proc/${owner}`))
      rmSync(lock, { recursive: true, force: true })
    return false
  }
}

export async function up(options: UpOptions = {}): Promise<StartedCluster> {
  const clusterDir = options.clusterDir ?? DEFAULT_CLUSTER_DIR
  return withLock(clusterDir, () => upLocked(clusterDir, options.log ?? logToStderr))
}

function logToStderr(line: string): void {
  process.stderr.write(`${line}\n`)
}

async function upLocked(clusterDir: string, log: (line: string) => void): Promise<StartedCluster> {
  const envFile = envFilePath(clusterDir)
  const previous = readClusterEnv(envFile)
  if (previous !== undefined) {
    if (await isLive(previous)) {
      log(`reusing the running cluster from ${envFile}`)
      return { ...previous, reused: true }
    }
    log(`the cluster in ${envFile} is not healthy; replacing it`)
    await down(clusterDir)
  }

  const started = Date.now()
  const cacheDir = buildBinaries(log)
  const binDir = join(cacheDir, 'bin')
  const dataDir = join(clusterDir, 'data')
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const logs = Object.fromEntries(
    COMPONENTS.map((c) => [c, join(clusterDir, `${c}.log`)])
  ) as Record<Component, string>
  for (const file of Object.values(logs)) writeFileSync(file, '')
  const [etcdPort, peerPort, apiPort, xds, metrics, health, debug, egAdmin, ...traefikPorts] =
    await freePorts(13)
  const [tHttp, tSameNs, tTls, tTcp, tPing] = traefikPorts as [
    number,
    number,
    number,
    number,
    number
  ]
  const traefik = traefikGateway({ http: tHttp, sameNs: tSameNs, tls: tTls, tcp: tTcp })
  const pids: Partial<Record<Component, number>> = {}
  const start = (
    component: Component,
    args: string[]
  ): { pid: number; binary: string; log: string } => {
    const binary = binaryPath({ binDir }, component)
    const pid = startDetached(binary, args, logs[component])
    pids[component] = pid
    return { pid, binary, log: logs[component] }
  }

  try {
    const pki = makePki(join(dataDir, 'pki'))
    const ca = readFileSync(pki.caCert, 'utf8')
    const healthUrls: Record<Component, string> = {
      etcd: `http://127.0.0.1:${etcdPort}/health`,
      apiserver: `https://127.0.0.1:${apiPort}/readyz`,
      contour: `http://127.0.0.1:${health}/healthz`,
      'envoy-gateway': 'http://127.0.0.1:8081/readyz',
      traefik: `http://127.0.0.1:${tPing}/ping`
    }

    const etcd = start('etcd', etcdArgs(dataDir, etcdPort!, peerPort!))
    await waitHealthy('etcd', { url: healthUrls.etcd }, etcd, 30_000)
    log(`etcd ready (${Date.now() - started} ms)`)

    const apiserver = start('apiserver', apiserverArgs(dataDir, pki, apiPort!, etcdPort!))
    await waitHealthy('kube-apiserver', { url: healthUrls.apiserver, ca }, apiserver, 120_000)
    log(`kube-apiserver ready (${Date.now() - started} ms)`)

    const apiServer = `https://127.0.0.1:${apiPort}`
    const kubeconfig = join(clusterDir, 'kubeconfig')
    writeFileSync(kubeconfig, kubeconfigYaml(apiServer, pki), { mode: 0o600 })
    const kc = new KubeConfig()
    kc.loadFromFile(kubeconfig)
    const crdCount = await installCrds(kc, crdFiles(cacheDir))
    log(`${crdCount} CRDs established (${Date.now() - started} ms)`)
    await createGateways(kc, [CONTOUR_GATEWAY, ENVOY_GATEWAY_GATEWAY, traefik, OTHER_GATEWAY])

    const contourConfig = join(dataDir, 'contour.yaml')
    writeFileSync(
      contourConfig,
      `gateway:\n  gatewayRef:\n    namespace: ${CONTOUR_GATEWAY.namespace}\n    name: ${CONTOUR_GATEWAY.name}\n`
    )
    const contour = start(
      'contour',
      contourArgs(contourConfig, kubeconfig, {
        xds: xds!,
        metrics: metrics!,
        health: health!,
        debug: debug!
      })
    )
    await waitHealthy('contour', { url: healthUrls.contour }, contour, 60_000)
    const gatewayReadyCondition = await waitForGateway(kc, 60_000)
    log(`Gateway ${gatewayReadyCondition} by Contour (${Date.now() - started} ms)`)

    const envoyGateway = await startEnvoyGateway({
      binary: binaryPath({ binDir }, 'envoy-gateway'),
      kc,
      kubeconfig,
      dataDir,
      log: logs['envoy-gateway'],
      adminPort: egAdmin!
    })
    pids['envoy-gateway'] = envoyGateway.pid
    const traefikProcess = startTraefik({
      binary: binaryPath({ binDir }, 'traefik'),
      kubeconfig,
      gateway: traefik,
      pingPort: tPing,
      log: logs.traefik
    })
    pids.traefik = traefikProcess.pid
    await waitHealthy('traefik', { url: healthUrls.traefik }, traefikProcess, 60_000)
    log(
      `Gateway ${await waitForGateway(kc, 60_000, traefik)} by Traefik (${Date.now() - started} ms)`
    )
    await waitHealthy('envoy-gateway', { url: healthUrls['envoy-gateway'] }, envoyGateway, 120_000)
    await playEnvoyDataPlane(kc, ENVOY_GATEWAY_GATEWAY, 60_000)
    log(
      `Gateway ${await waitForGateway(kc, 60_000, ENVOY_GATEWAY_GATEWAY)} by Envoy Gateway (${Date.now() - started} ms)`
    )

    const env: ClusterEnv = {
      kubeconfig,
      apiServer,
      gatewayClass: CONTOUR_GATEWAY.gatewayClass,
      gateway: { namespace: CONTOUR_GATEWAY.namespace, name: CONTOUR_GATEWAY.name },
      listeners: CONTOUR_GATEWAY.listeners,
      otherGateway: OTHER_GATEWAY,
      gatewayReadyCondition,
      controllers: [
        controllerInfo('contour', CONTOUR_GATEWAY),
        controllerInfo('envoy-gateway', ENVOY_GATEWAY_GATEWAY),
        controllerInfo('traefik', traefik)
      ],
      pids: pids as Record<Component, number>,
      logs,
      health: healthUrls,
      dataDir,
      binDir,
      startedAt: new Date(started).toISOString()
    }
    writeFileSync(envFile, `${JSON.stringify(env, null, 2)}\n`)
    log(`cluster up in ${Date.now() - started} ms\n  kubeconfig: ${kubeconfig}\n  env: ${envFile}`)
    return { ...env, reused: false }
  } catch (error) {
    await stopAll(pids, binDir)
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`test cluster failed to start: ${reason}\n  logs: ${clusterDir}/*.log`, {
      cause: error
    })
  }
}

/** Stops the processes recorded in env.json and removes the data; logs stay for post-mortems. */
export async function down(clusterDir: string = DEFAULT_CLUSTER_DIR): Promise<boolean> {
  const env = readClusterEnv(envFilePath(clusterDir))
  if (env === undefined) return false
  await stopAll(env.pids, env.binDir)
  rmSync(env.dataDir, { recursive: true, force: true })
  rmSync(env.kubeconfig, { force: true })
  rmSync(envFilePath(clusterDir), { force: true })
  return true
}
