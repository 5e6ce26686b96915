// The gcp and azure auth-providers' cmd-path, which route-gate runs itself as it runs exec plugins:
// client-node's execSync let the command's stderr into the log. The token is read at token-key, held
// until expiry-key's time, masked; a failing command is named with its exit code, its stderr never
// shown anywhere.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect } from '../../../src/cluster/connect.ts'
import { runCli } from '../../helpers/action.ts'
import { FAST_TUNING, FakeApiServer, sendJson } from '../../helpers/fake-apiserver.ts'

const SECRET = 'cmd-path-stderr-secret-5a7e'

/** A kubeconfig file whose user is the auth-provider `name` running `script` as its cmd-path. */
function providerKubeconfig(fake: FakeApiServer, name: string, script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'route-gate-provider-'))
  const command = join(dir, 'get-token.sh')
  writeFileSync(command, `#!/bin/sh\necho run >> '${join(dir, 'runs')}'\n${script}\n`, {
    mode: 0o755
  })
  const file = join(dir, 'config')
  writeFileSync(
    file,
    fake
      .kubeconfig()
      .replace(
        '    token: fake-token-123\n',
        [
          '    auth-provider:',
          `      name: ${name}`,
          '      config:',
          `        cmd-path: ${command}`,
          '        cmd-args: config config-helper --format=json',
          "        token-key: '{.credential.access_token}'",
          "        expiry-key: '{.credential.token_expiry}'",
          ''
        ].join('\n')
      )
  )
  return file
}

const runsOf = (kubeconfig: string): number =>
  readFileSync(join(kubeconfig, '..', 'runs'), 'utf8')
    .split('\n')
    .filter(Boolean).length

describe('auth-provider cmd-path', () => {
  let fake: FakeApiServer
  beforeEach(async () => {
    fake = await FakeApiServer.start()
    fake.on('GET', '/api/v1/namespaces/shop', (_req, res) =>
      sendJson(res, 200, { kind: 'Namespace', metadata: { name: 'shop' } })
    )
  })
  afterEach(async () => {
    await fake.close()
  })

  it('the CLI: a failing command is named with its exit code; its stderr never shown', async () => {
    const file = providerKubeconfig(fake, 'gcp', `echo "${SECRET}" >&2; exit 1`)
    const result = await runCli(
      ['check', '--routes', 'httproute/default/web', '--timeout', '3s', '--kubeconfig', file],
      { env: { GITHUB_ACTIONS: 'true' } }
    )
    expect(result.code).toBe(3)
    expect(result.stdout + result.stderr).not.toContain(SECRET)
    expect(result.stderr).toContain('auth-provider "gcp" failed (exit code 1)')
    expect(runsOf(file)).toBe(1)
  })

  for (const provider of ['gcp', 'azure']) {
    it(`${provider}: the token at token-key is carried, masked, and reused until its expiry`, async () => {
      const output = {
        credential: {
          access_token: `${provider}-token-3e9d1f`,
          token_expiry: '2999-01-01T00:00:00Z'
        }
      }
      const file = providerKubeconfig(fake, provider, `echo '${JSON.stringify(output)}'`)
      const masked: string[] = []
      const client = await connect({
        env: { KUBECONFIG: file, HOME: tmpdir() },
        mask: (s) => masked.push(s),
        tuning: FAST_TUNING
      })
      await client.checkNamespaces(['shop'])
      await client.checkNamespaces(['shop'])
      client.close()
      const sent = fake
        .requestsTo('GET', '/api/v1/namespaces/shop')
        .map((r) => r.headers.authorization)
      expect(sent).toEqual([`Bearer ${provider}-token-3e9d1f`, `Bearer ${provider}-token-3e9d1f`])
      expect(masked).toContain(`${provider}-token-3e9d1f`)
      expect(runsOf(file)).toBe(1)
    })
  }
})
