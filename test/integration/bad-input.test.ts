// The bad-input corpus (test/bad-inputs) through the committed bundles, as users meet it: the CLI with
// flags and the Action with INPUT_*, against the real control plane. Each case ends with its exit code
// and one clear line carrying the exact message of its table row, no stack trace, no credential; and
// reading the cluster afterwards proves that nothing of an invalid manifest set was applied.
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, truncate, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_FILE_BYTES } from '../../src/read/files.ts'
import {
  BAD_INPUTS,
  CASE_TOKEN,
  caseKubeconfig,
  fill,
  specialFiles,
  UNREACHABLE_SERVER,
  type BadInputCase
} from '../bad-inputs/cases.ts'
import { runAction, runCli } from '../helpers/action.ts'
import { clusterEnv, kube, testNamespace } from '../helpers/cluster.ts'
import { statusCode } from '../cluster/fixtures.ts'

const CORPUS = fileURLToPath(new URL('../bad-inputs', import.meta.url))
let huge: string
let special: { fifo: string; zerodir: string }
let strangerCa: string

beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-bad-'))
  huge = path.join(dir, 'huge.yaml')
  await writeFile(huge, '')
  await truncate(huge, MAX_FILE_BYTES + 1)
  special = await specialFiles(dir)
  // a CA that signed nothing the test cluster serves
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      path.join(dir, 'stranger.key'),
      '-out',
      path.join(dir, 'stranger.crt'),
      '-subj',
      '/CN=stranger-ca',
      '-days',
      '1'
    ],
    { stdio: 'ignore' }
  )
  strangerCa = (await readFile(path.join(dir, 'stranger.crt'))).toString('base64')
})

interface Prepared {
  values: Record<string, string>
  inputs: Record<string, string>
  kubeconfig?: string
  message: string
}

async function prepare(badCase: BadInputCase): Promise<Prepared> {
  const env = clusterEnv()
  const uses = (key: string): boolean => JSON.stringify(badCase.inputs).includes(`{${key}}`)
  const ownServer = badCase.kubeconfig === 'unreachable' || badCase.kubeconfig === 'no-context'
  const values: Record<string, string> = {
    ns: uses('ns') ? await testNamespace('bad-input') : '',
    huge,
    server: ownServer ? UNREACHABLE_SERVER : env.apiServer,
    context: badCase.kubeconfig === undefined ? 'route-gate-test' : 'test',
    ...special
  }
  const inputs = Object.fromEntries(
    Object.entries(badCase.inputs).map(([k, v]) => [k, fill(v, values)])
  )
  const kubeconfig =
    badCase.kubeconfig === undefined
      ? undefined
      : caseKubeconfig(badCase.kubeconfig, { server: env.apiServer, caData: strangerCa })
  return { values, inputs, kubeconfig, message: fill(badCase.message, values) }
}

async function expectNothingApplied(badCase: BadInputCase, ns: string): Promise<void> {
  for (const object of badCase.notApplied ?? []) {
    const [plural, name] = object.split('/') as [string, string]
    const read =
      plural === 'services'
        ? kube().core.readNamespacedService({ namespace: ns, name })
        : kube().custom.getNamespacedCustomObject({
            group: 'gateway.networking.k8s.io',
            version: 'v1',
            namespace: ns,
            plural,
            name
          })
    const code = await read.then(
      () => 200,
      (error: unknown) => statusCode(error)
    )
    expect(code, `${object} in ${ns}`).toBe(404)
  }
}

async function kubeconfigFile(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-bad-kubeconfig-'))
  const file = path.join(dir, 'config')
  await writeFile(file, text, { mode: 0o600 })
  return file
}

const noStack = (text: string): void => {
  expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
  expect(text).not.toMatch(/\b(TypeError|ReferenceError|SyntaxError)\b/)
}

describe.concurrent('bad inputs through the bundles', () => {
  it.each(BAD_INPUTS.map((c) => [c.name, c] as const))('%s', async (_name, badCase) => {
    const { values, inputs, kubeconfig, message } = await prepare(badCase)
    const env = { KUBECONFIG: clusterEnv().kubeconfig }

    // manifests are what apply takes; check never writes
    const verb = inputs.manifests === undefined ? 'check' : 'apply'
    const args = [verb, ...Object.entries(inputs).flatMap(([k, v]) => [`--${k}`, v])]
    // the CLI's --kubeconfig is a path, as in kubectl
    const file = kubeconfig === undefined ? undefined : await kubeconfigFile(kubeconfig)
    if (file !== undefined) args.push('--kubeconfig', file)
    const cli = await runCli(args, { env, cwd: CORPUS })
    expect(cli.code, cli.stderr).toBe(badCase.code)
    const cliMessage = fill(badCase.cliMessage ?? badCase.message, {
      ...values,
      kubeconfigFile: file ?? ''
    })
    expect(cli.stderr.split('\n').filter((l) => l.startsWith('route-gate:'))).toEqual([
      `route-gate: ${cliMessage}`
    ])
    expect(cli.stdout).toBe('')
    noStack(cli.stderr)
    expect(cli.stderr).not.toContain(CASE_TOKEN)

    const action = await runAction(kubeconfig === undefined ? inputs : { ...inputs, kubeconfig }, {
      env,
      cwd: CORPUS
    })
    expect(action.code, action.stdout).toBe(badCase.code)
    expect(action.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
      `::error::route-gate: ${message.replaceAll('%', '%25')}`
    ])
    expect(action.outputs).toMatchObject({ verdict: 'error', ready: 'false' })
    noStack(action.stdout)
    // the token reaches the log only inside the command that tells the runner to mask it
    const leaks = action.stdout.split('\n').filter((l) => l.includes(CASE_TOKEN))
    expect(leaks.every((l) => l === `::add-mask::${CASE_TOKEN}`)).toBe(true)
    expect(action.summary).not.toContain(CASE_TOKEN)
    expect(action.summary).toContain('route-gate could not run')

    if (values.ns) await expectNothingApplied(badCase, values.ns)
  })
})
