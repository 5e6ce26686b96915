// Envoy Gateway and Traefik started out of cluster beside Contour. Each needs more than a command
// line: Envoy Gateway its TLS files at fixed paths and a data plane that never runs (its status has
// to be played), Traefik an entry point per listener port. See README.md for what each writes.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node'
import type { KubeConfig } from '@kubernetes/client-node'
import type { GatewayInfo } from './env.ts'
import { ENVOY_GATEWAY_NAMESPACE } from './fixtures.ts'
import { bindable, isRunning, startDetached } from './processes.ts'

export interface Started {
  pid: number
  binary: string
  log: string
}

/** Envoy Gateway's listeners, fixed in its code on all interfaces: one Envoy Gateway per host. */
export const ENVOY_GATEWAY_FIXED_PORTS = [8080, 8081, 18000, 18002]

/**
 * The addresses Envoy Gateway's and Traefik's Gateways get. Loopback: the only address where test
 * traffic may go (Traefik serves it; for Envoy Gateway nothing listens there).
 */
export const GATEWAY_STATUS_ADDRESS = '127.0.0.1'

function envoyGatewayConfig(adminPort: number): string {
  return `apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyGateway
gateway:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
provider:
  type: Kubernetes
  kubernetes:
    leaderElection:
      disable: true
    # as for Contour: Routes accumulate over a run and every status write counts against the limit
    client:
      rateLimit:
        qps: 200
        burst: 400
    proxyTopologyInjector:
      disabled: true
admin:
  address:
    host: 127.0.0.1
    port: ${adminPort}
telemetry:
  metrics:
    prometheus:
      disable: true
`
}

/**
 * Its xDS server reads /certs/{tls.crt,tls.key,ca.crt} and it creates /var/lib/eg/wasm, both fixed
 * in its code. It runs in a mount namespace of its own where a directory of this cluster is bound
 * over each, so the host's /certs and /var/lib/eg stay empty mount points and two clusters never
 * share certificates. Needs root (mount namespaces), which the test machines have.
 */
export async function startEnvoyGateway(o: {
  binary: string
  kc: KubeConfig
  kubeconfig: string
  dataDir: string
  log: string
  adminPort: number
}): Promise<Started> {
  for (const port of ENVOY_GATEWAY_FIXED_PORTS) {
    if (!(await bindable(port, '0.0.0.0')))
      throw new Error(
        `Envoy Gateway needs port ${port} on all interfaces (fixed in its code) and it is taken; is another test cluster running Envoy Gateway? (ss -ltnp 'sport = :${port}')`
      )
  }
  const env = { KUBECONFIG: o.kubeconfig, ENVOY_GATEWAY_NAMESPACE }
  const dir = join(o.dataDir, 'envoy-gateway')
  const certs = join(dir, 'certs')
  const wasm = join(dir, 'eg')
  mkdirSync(certs, { recursive: true })
  mkdirSync(wasm, { recursive: true })
  // creates the Secrets through the API; without the flag it exits 1 looking for a webhook
  execFileSync(o.binary, ['certgen', '--disable-topology-injector'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const secret = await o.kc
    .makeApiClient(CoreV1Api)
    .readNamespacedSecret({ namespace: ENVOY_GATEWAY_NAMESPACE, name: 'envoy-gateway' })
  for (const file of ['tls.crt', 'tls.key', 'ca.crt']) {
    const data = secret.data?.[file]
    if (data === undefined) throw new Error(`Secret envoy-gateway has no ${file}`)
    writeFileSync(join(certs, file), Buffer.from(data, 'base64'), { mode: 0o600 })
  }
  const config = join(dir, 'config.yaml')
  writeFileSync(config, envoyGatewayConfig(o.adminPort))
  mkdirSync('/certs', { recursive: true })
  mkdirSync('/var/lib/eg', { recursive: true })
  const script =
    'mount --bind "$1" /certs && mount --bind "$2" /var/lib/eg && exec "$3" server --config-path "$4"'
  const pid = startDetached(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      script,
      'sh',
      certs,
      wasm,
      o.binary,
      config
    ],
    o.log,
    env
  )
  // the pid becomes Envoy Gateway once the shell execs it; until then it is unshare or sh
  const deadline = Date.now() + 10_000
  while (!isRunning(pid, o.binary)) {
    if (Date.now() > deadline)
      throw new Error(`Envoy Gateway did not start; see ${o.log}\n${readFileSync(o.log, 'utf8')}`)
    await sleep(50)
  }
  return { pid, binary: o.binary, log: o.log }
}

/**
 * Envoy Gateway sets its Gateway Programmed only when the Service it provisioned has a load-balancer
 * address and its Deployment has available replicas. No kubelet or load-balancer controller runs
 * here, so this writes both statuses the way those controllers would, once the objects exist.
 */
export async function playEnvoyDataPlane(
  kc: KubeConfig,
  gateway: GatewayInfo,
  timeoutMs: number
): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api)
  const apps = kc.makeApiClient(AppsV1Api)
  const labelSelector = `gateway.envoyproxy.io/owning-gateway-namespace=${gateway.namespace},gateway.envoyproxy.io/owning-gateway-name=${gateway.name}`
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const namespace = ENVOY_GATEWAY_NAMESPACE
    const services = (await core.listNamespacedService({ namespace, labelSelector })).items
    const deployments = (await apps.listNamespacedDeployment({ namespace, labelSelector })).items
    if (services.length > 0 && deployments.length > 0) {
      for (const service of services) {
        await core.replaceNamespacedServiceStatus({
          namespace,
          name: service.metadata!.name!,
          body: {
            ...service,
            status: { loadBalancer: { ingress: [{ ip: GATEWAY_STATUS_ADDRESS }] } }
          }
        })
      }
      for (const deployment of deployments) {
        const replicas = deployment.spec?.replicas ?? 1
        await apps.replaceNamespacedDeploymentStatus({
          namespace,
          name: deployment.metadata!.name!,
          body: {
            ...deployment,
            status: {
              observedGeneration: deployment.metadata?.generation,
              replicas,
              readyReplicas: replicas,
              availableReplicas: replicas,
              updatedReplicas: replicas
            }
          }
        })
      }
      return
    }
    if (Date.now() > deadline)
      throw new Error(
        `Envoy Gateway provisioned no Service and Deployment for Gateway ${gateway.namespace}/${gateway.name} within ${timeoutMs} ms`
      )
    await sleep(250)
  }
}

/** Entry-point flags: one per listener, named after it, on loopback at the listener's port. */
function entryPoints(gateway: GatewayInfo): string[] {
  return gateway.listeners.map((l) => `--entryPoints.${l.name}.address=127.0.0.1:${l.port}`)
}

export function startTraefik(o: {
  binary: string
  kubeconfig: string
  gateway: GatewayInfo
  pingPort: number
  log: string
}): Started {
  const args = [
    '--providers.kubernetesGateway=true',
    '--providers.kubernetesGateway.experimentalChannel=true',
    `--providers.kubernetesGateway.statusAddress.ip=${GATEWAY_STATUS_ADDRESS}`,
    ...entryPoints(o.gateway),
    // the ping entry point: Traefik's default (:8080) is one of Envoy Gateway's fixed ports
    `--entryPoints.ping.address=127.0.0.1:${o.pingPort}`,
    '--ping=true',
    '--ping.entryPoint=ping',
    '--global.checkNewVersion=false',
    '--global.sendAnonymousUsage=false',
    '--log.level=INFO'
  ]
  const pid = startDetached(o.binary, args, o.log, { KUBECONFIG: o.kubeconfig })
  return { pid, binary: o.binary, log: o.log }
}
