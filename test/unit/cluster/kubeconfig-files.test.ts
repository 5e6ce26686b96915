// The certificate files a kubeconfig names are read synchronously: a FIFO among them, or a FIFO as the
// kubeconfig itself, would hang the run before any timeout starts, /dev/zero would never end.
// route-gate refuses them first, naming the file and the field (exit 2), as it does for manifests.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import { InputError } from '../../../src/runtime/errors.ts'
import { runCli } from '../../helpers/action.ts'

const dir = mkdtempSync(join(tmpdir(), 'route-gate-kcfiles-'))
const fifo = join(dir, 'config.fifo')
execFileSync('mkfifo', [fifo])
const zero = join(dir, 'zero.pem')
symlinkSync('/dev/zero', zero)
const env = { HOME: mkdtempSync(join(tmpdir(), 'route-gate-home-')) }

function kubeconfig(cluster: string[], user: string[]): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: prod',
    '  cluster:',
    '    server: https://127.0.0.1:2',
    ...cluster.map((line) => `    ${line}`),
    'users:',
    '- name: deployer',
    '  user:',
    ...user.map((line) => `    ${line}`),
    'contexts:',
    '- name: ci',
    '  context: {cluster: prod, user: deployer}',
    'current-context: ci',
    ''
  ].join('\n')
}

async function refusal(source: { kubeconfig?: string; KUBECONFIG?: string }): Promise<unknown> {
  const { KUBECONFIG, kubeconfig: text } = source
  return connect({
    kubeconfig: text,
    env: KUBECONFIG === undefined ? env : { ...env, KUBECONFIG },
    mask: () => {}
  }).catch((error: unknown) => error)
}

describe('files a kubeconfig brings', () => {
  it('refuses a KUBECONFIG that is a FIFO or a directory, naming it', async () => {
    const fromFifo = await refusal({ KUBECONFIG: fifo })
    expect(fromFifo).toBeInstanceOf(InputError)
    expect((fromFifo as Error).message).toBe(
      `Invalid kubeconfig ${fifo}: a FIFO, not a regular file`
    )
    const fromDir = await refusal({ KUBECONFIG: dir })
    expect((fromDir as Error).message).toBe(
      `Invalid kubeconfig ${dir}: a directory, not a regular file`
    )
  })

  it('refuses a certificate-authority, client-certificate or client-key that is no regular file', async () => {
    const cases: [string[], string[], string][] = [
      [
        [`certificate-authority: ${fifo}`],
        ['token: t0ken-abc'],
        `cluster "prod" certificate-authority ${fifo}: a FIFO`
      ],
      [
        ['insecure-skip-tls-verify: true'],
        [`client-certificate: ${zero}`, `client-key: ${zero}`],
        `user "deployer" client-certificate ${zero}: a character device`
      ],
      [
        ['insecure-skip-tls-verify: true'],
        ['client-certificate-data: Y2VydA==', `client-key: ${join(dir, 'gone.key')}`],
        `user "deployer" client-key ${join(dir, 'gone.key')}: no such file`
      ]
    ]
    for (const [cluster, user, what] of cases) {
      const error = await refusal({ kubeconfig: kubeconfig(cluster, user) })
      expect(error, what).toBeInstanceOf(InputError)
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Invalid kubeconfig \\(context "ci"\\): ${what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`
        )
      )
    }
  })

  it('reads regular certificate files, through symlinks as Secret mounts make them', async () => {
    const ca = join(dir, 'ca.crt')
    writeFileSync(ca, 'not checked here: only that it is a file\n')
    const linked = join(dir, 'linked-ca.crt')
    symlinkSync(ca, linked)
    const client = await connect({
      kubeconfig: kubeconfig([`certificate-authority: ${linked}`], ['token: t0ken-abc']),
      env,
      mask: () => {}
    })
    expect(client.description).toBe('https://127.0.0.1:2 (context ci)')
  })

  it('the CLI refuses a FIFO KUBECONFIG at once with one line and exit 2', async () => {
    const result = await runCli(['check', '--routes', 'httproute/default/web', '--timeout', '5m'], {
      env: { KUBECONFIG: fifo, HOME: env.HOME }
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `route-gate: Invalid kubeconfig ${fifo}: a FIFO, not a regular file\n`
    )
    expect(result.stdout).toBe('')
  })
})
