// The Gateway API conformance manifests as the recorder applies them: read from the Go module's own
// copy (never committed here), with the placeholders the conformance suite fills in filled in the
// same way for each controller of the test plane.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseAllDocuments } from 'yaml'
import type { ControllerInfo } from '../cluster/env.ts'

export const CONFORMANCE_MODULE = 'sigs.k8s.io/gateway-api/conformance'
export const CONFORMANCE_VERSION = 'v1.6.3'

export interface Manifest {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string } & Record<string, unknown>
  spec?: Record<string, unknown>
  [field: string]: unknown
}

export interface TestFile {
  /** the file name without .yaml, e.g. httproute-simple-same-namespace */
  name: string
  text: string
}

/**
 * The module's directory in the module cache, as build-binaries.sh finds gateway-api's: `go mod
 * download` checks the zip against sum.golang.org, so the manifests are the published ones.
 */
export function conformanceDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'route-gate-conformance-mod-'))
  try {
    const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' }
    execFileSync('go', ['mod', 'init', 'example.invalid/conformance-source'], {
      cwd: dir,
      env,
      stdio: 'ignore'
    })
    const out = execFileSync(
      'go',
      ['mod', 'download', '-json', `${CONFORMANCE_MODULE}@${CONFORMANCE_VERSION}`],
      { cwd: dir, env, encoding: 'utf8' }
    )
    const { Dir } = JSON.parse(out) as { Dir?: string }
    if (Dir === undefined) throw new Error(`go mod download named no directory: ${out}`)
    return Dir
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function readSources(dir: string): { base: string; tests: TestFile[] } {
  const tests = readdirSync(path.join(dir, 'tests'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({
      name: f.slice(0, -'.yaml'.length),
      text: readFileSync(path.join(dir, 'tests', f), 'utf8')
    }))
  return { base: readFileSync(path.join(dir, 'base', 'manifests.yaml'), 'utf8'), tests }
}

/**
 * Traefik binds each listener's port as an entry point of its own; the plane's Traefik has four,
 * on ports picked per plane, and writes PortUnavailable for a listener on any other port. The
 * conformance listeners' four most used ports take those four entry points (as Traefik's own
 * conformance run puts entry points on the listener ports); every other port stays, refused.
 */
export function traefikPorts(traefik: ControllerInfo): Map<number, number> {
  const port = (name: string): number => {
    const listener = traefik.listeners.find((l) => l.name === name)
    if (listener === undefined) throw new Error(`Traefik has no entry point ${name}`)
    return listener.port
  }
  return new Map([
    [80, port('http')],
    [443, port('tls')],
    [8080, port('same-ns')],
    [8443, port('tcp')]
  ])
}

const LISTENER_KINDS = new Set(['Gateway', 'ListenerSet', 'XListenerSet'])
const ROUTE_KINDS = new Set(['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'])

function remapPorts(object: Manifest, ports: Map<number, number>): void {
  const spec = object.spec
  if (spec === undefined) return
  const remap = (entry: Record<string, unknown>): void => {
    const mapped = typeof entry.port === 'number' ? ports.get(entry.port) : undefined
    if (mapped !== undefined) entry.port = mapped
  }
  if (LISTENER_KINDS.has(object.kind))
    for (const l of (spec.listeners ?? []) as Record<string, unknown>[]) remap(l)
  if (ROUTE_KINDS.has(object.kind))
    for (const p of (spec.parentRefs ?? []) as Record<string, unknown>[]) remap(p)
}

/**
 * The suite swaps PLACEHOLDER_USABLE_ADDRS / PLACEHOLDER_UNUSABLE_ADDRS for address pools its
 * caller gives; the recorder gives none, as the suite's defaults do, so only the other addresses
 * (the deliberately invalid type) stay.
 */
function dropAddressPlaceholders(object: Manifest): void {
  const addresses = object.spec?.addresses as { value?: string }[] | undefined
  if (object.kind !== 'Gateway' || addresses === undefined) return
  object.spec!.addresses = addresses.filter((a) => !a.value?.startsWith('PLACEHOLDER_'))
}

export interface Target {
  controller: ControllerInfo
  /** listener port → entry-point port (Traefik only) */
  ports?: Map<number, number>
}

/** The objects of one file for one controller, every placeholder filled in. */
export function prepare(text: string, target: Target, file: string): Manifest[] {
  const filled = text
    .replaceAll('{GATEWAY_CLASS_NAME}', target.controller.gatewayClass)
    .replaceAll('{GATEWAY_CONTROLLER_NAME}', target.controller.controllerName)
  // a placeholder this recorder does not know would reach the API server verbatim
  const unknown = filled.match(/\{[A-Z][A-Z_]+\}/)
  if (unknown) throw new Error(`${file}: unknown placeholder ${unknown[0]}`)
  const objects: Manifest[] = []
  for (const doc of parseAllDocuments(filled)) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`)
    const object = doc.toJS() as Manifest | null
    if (object === null || typeof object !== 'object') continue
    dropAddressPlaceholders(object)
    if (target.ports) remapPorts(object, target.ports)
    objects.push(object)
  }
  return objects
}

export function objectKey(o: {
  kind: string
  metadata: { name: string; namespace?: string }
}): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
}

export function isRouteKind(kind: string): boolean {
  return ROUTE_KINDS.has(kind)
}
