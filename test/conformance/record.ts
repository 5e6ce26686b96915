// Records the Gateway API conformance manifests on the test plane's three controllers: per
// controller the base manifests, then each test file on top of them, and after each the status the
// controller wrote, as route-gate's own dump. test/unit/predict/conformance-yardstick.test.ts
// replays these moments offline. See test/fixtures/conformance/README.md for how to run it.
//
//   node --experimental-strip-types test/conformance/record.ts [--only contour,traefik]
//     [--tests httproute-simple,tlsroute] [--out DIR]   (default: test/fixtures/conformance)
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { REPO_ROOT, type ClusterEnv, type ControllerId } from '../cluster/env.ts'
import { clusterEnv, controller } from '../helpers/cluster.ts'
import type { KubeObject } from '../../src/model/types.ts'
import {
  canonical,
  decode,
  dumpOrder,
  encode,
  stripVolatile,
  type Moment
} from './fixture-format.ts'
import {
  apply,
  bundleCli,
  dump,
  endpointSlices,
  playEnvoy,
  remove,
  runtimeObjects,
  startContour,
  stopContour,
  type ContourInstance
} from './plane.ts'
import {
  conformanceDir,
  objectKey,
  prepare,
  readSources,
  traefikPorts,
  type Manifest,
  type Target,
  type TestFile
} from './source.ts'
import { settle, trackedRoutes, waitGateways, waitRoutes } from './wait.ts'

const CONTROLLERS: ControllerId[] = ['contour', 'envoy-gateway', 'traefik']
const FIXTURE_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'conformance')
/** how long a Route of the controller's Gateways may go without status before it counts as none */
const ROUTE_WAIT_MS = 15_000

const live = new Set<ContourInstance>()

function log(line: string): void {
  process.stderr.write(`[conformance] ${line}\n`)
}

async function applyAll(
  objects: Manifest[]
): Promise<{ applied: Manifest[]; rejected: Moment['rejected'] }> {
  // a test's Namespace before the objects in it
  const ordered = [
    ...objects.filter((o) => o.kind === 'Namespace'),
    ...objects.filter((o) => o.kind !== 'Namespace')
  ]
  const applied: Manifest[] = []
  const rejected: NonNullable<Moment['rejected']> = []
  for (const o of ordered) {
    const refused = await apply(o)
    if (refused === undefined) applied.push(o)
    else rejected.push({ object: objectKey(o), message: refused })
  }
  return { applied, rejected }
}

function gatewaysOf(objects: Manifest[], target: Target): { namespace: string; name: string }[] {
  return objects
    .filter(
      (o) => o.kind === 'Gateway' && o.spec?.gatewayClassName === target.controller.gatewayClass
    )
    .map((o) => ({ namespace: o.metadata.namespace ?? 'default', name: o.metadata.name }))
}

/** Starts what serves the Gateways beyond the controller itself: a Contour each, Envoy's statuses. */
async function serve(
  env: ClusterEnv,
  id: ControllerId,
  gateways: { namespace: string; name: string }[]
): Promise<ContourInstance[]> {
  if (id === 'envoy-gateway') await playEnvoy(gateways)
  if (id !== 'contour') return []
  const started: ContourInstance[] = []
  for (const g of gateways) {
    const instance = await startContour(env, g)
    live.add(instance)
    started.push(instance)
  }
  return started
}

async function stopAll(instances: ContourInstance[]): Promise<void> {
  for (const instance of instances) {
    await stopContour(instance)
    live.delete(instance)
  }
}

let cli = ''

async function moment(env: ClusterEnv, name: string, extra: Partial<Moment> = {}): Promise<Moment> {
  const { header, objects } = await dump(env, cli)
  return { name, header, objects: (objects as KubeObject[]).map(stripVolatile), ...extra }
}

async function recordTest(
  env: ClusterEnv,
  id: ControllerId,
  target: Target,
  base: Manifest[],
  test: TestFile
): Promise<Moment> {
  const started = Date.now()
  const objects = prepare(test.text, target, `tests/${test.name}.yaml`)
  const { applied, rejected } = await applyAll(objects)
  const slices = endpointSlices(applied)
  await applyAll(slices)
  const gateways = gatewaysOf(applied, target)
  let contours: ContourInstance[] = []
  try {
    contours = await serve(env, id, gateways)
    await waitGateways(gateways, target.controller.controllerName, ROUTE_WAIT_MS)
    const tracked = trackedRoutes(applied, [...base, ...applied], target)
    const waited = await waitRoutes(tracked, target.controller.controllerName, ROUTE_WAIT_MS)
    const allGateways = [...base, ...applied].filter((o) => o.kind === 'Gateway')
    await settle([...tracked.map((t) => t.route), ...allGateways])
    const recorded = await moment(env, test.name, { waited, rejected })
    log(
      `${id} ${test.name}: ${waited.settled.length} settled, ${waited.timedOut.length} without status, ${rejected?.length ?? 0} refused (${Date.now() - started} ms)`
    )
    return recorded
  } finally {
    await stopAll(contours)
    await remove([...applied, ...slices].reverse())
  }
}

async function recordController(
  env: ClusterEnv,
  id: ControllerId,
  sources: { base: string; tests: TestFile[] }
): Promise<Moment[]> {
  const info = controller(id)
  const target: Target = {
    controller: info,
    ...(id === 'traefik' ? { ports: traefikPorts(info) } : {})
  }
  const base = prepare(sources.base, target, 'base/manifests.yaml')
  const { applied, rejected } = await applyAll(base)
  if (rejected && rejected.length > 0) throw new Error(`base refused: ${JSON.stringify(rejected)}`)
  await applyAll(endpointSlices(applied))
  const gateways = gatewaysOf(applied, target)
  const contours = await serve(env, id, gateways)
  try {
    await waitGateways(gateways, info.controllerName, ROUTE_WAIT_MS)
    await settle(applied.filter((o) => o.kind === 'Gateway'))
    const moments = [await moment(env, 'base')]
    for (const test of sources.tests) moments.push(await recordTest(env, id, target, applied, test))
    return moments
  } finally {
    await stopAll(contours)
    // the next controller's base Gateways are the same objects of another class
    await remove(applied.filter((o) => o.kind === 'Gateway'))
  }
}

/** The replay must see each moment exactly as dumped, in the dump's order. */
function verify(moments: Moment[], text: string): void {
  const decoded = decode(text).moments
  moments.forEach((m, i) => {
    const back = decoded[i]
    if (back === undefined || back.name !== m.name) throw new Error(`moment ${m.name} not decoded`)
    if (canonical(back.header) !== canonical(m.header)) throw new Error(`${m.name}: header differs`)
    const sameSet =
      canonical([...back.objects].sort(dumpOrder)) === canonical([...m.objects].sort(dumpOrder))
    if (!sameSet) throw new Error(`${m.name}: objects differ once decoded`)
    if (canonical(back.objects) !== canonical(m.objects))
      log(`${m.name}: decoded in another order than dumped`)
  })
}

function options(): { only: ControllerId[]; tests?: string; out: string } {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, tests: { type: 'string' }, out: { type: 'string' } }
  })
  const only = (values.only?.split(',') ?? CONTROLLERS) as ControllerId[]
  for (const id of only) if (!CONTROLLERS.includes(id)) throw new Error(`unknown controller ${id}`)
  return {
    only,
    ...(values.tests === undefined ? {} : { tests: values.tests }),
    out: path.resolve(values.out ?? FIXTURE_DIR)
  }
}

async function main(): Promise<void> {
  const { only, tests, out } = options()
  const env = clusterEnv()
  cli = await bundleCli()
  const dir = conformanceDir()
  log(`manifests from ${dir}`)
  const sources = readSources(dir)
  const selected =
    tests === undefined
      ? sources.tests
      : sources.tests.filter((t) => tests.split(',').some((part) => t.name.includes(part)))
  // the certificates live in the base's Namespaces, which are the same for every controller
  const namespaces = prepare(
    sources.base,
    { controller: controller(only[0]!) },
    'base/manifests.yaml'
  )
  const { rejected } = await applyAll([
    ...namespaces.filter((o) => o.kind === 'Namespace'),
    ...runtimeObjects()
  ])
  if (rejected && rejected.length > 0)
    throw new Error(`certificates refused: ${JSON.stringify(rejected)}`)
  mkdirSync(out, { recursive: true })
  const started = Date.now()
  for (const id of only) {
    const moments = await recordController(env, id, { base: sources.base, tests: selected })
    const info = controller(id)
    const file = path.join(out, `${id}.yaml`)
    const text = encode({
      controller: id,
      controllerName: info.controllerName,
      gatewayClass: info.gatewayClass,
      moments
    })
    verify(moments, text)
    writeFileSync(file, text)
    log(
      `${id}: ${moments.length} moments in ${file} (${Math.round((Date.now() - started) / 1000)} s so far)`
    )
  }
  // the fixtures are text under prettier --check like every other file
  execFileSync(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--write', out],
    {
      stdio: 'ignore'
    }
  )
  log(`recorded in ${Math.round((Date.now() - started) / 1000)} s`)
  rmSync(path.dirname(cli), { recursive: true, force: true })
}

async function stopLive(): Promise<void> {
  await Promise.all([...live].map((instance) => stopContour(instance)))
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void stopLive().finally(() => process.exit(130))
  })
}

main().catch(async (error: unknown) => {
  await stopLive()
  log(error instanceof Error ? (error.stack ?? error.message) : String(error))
  process.exit(1)
})
