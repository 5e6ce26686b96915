// Credentials a kubeconfig produces by running a command (exec plugins) or from the oidc
// auth-provider, URLs with userinfo, and which kubeconfig values are masked. A failing plugin is reported
// as what failed and its exit code, never its output or arguments; a token it returns is masked.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { unexpiredIdToken } from '../../helpers/recording-server.ts'
import { connect } from '../../../src/cluster/connect.ts'
import type { Applied } from '../../../src/cluster/credentials.ts'
import { maskRawSecrets, maskUsers, withoutUserinfo } from '../../../src/cluster/secrets.ts'
import { ClusterError, InputError } from '../../../src/runtime/errors.ts'
import {
  authenticationOf,
  FAST_TUNING,
  FakeApiServer,
  sendJson
} from '../../helpers/fake-apiserver.ts'

const env = { HOME: mkdtempSync(join(tmpdir(), 'route-gate-home-')) }
const STDERR_SECRET = 'stderr-secret-41c9'
const ARG_SECRET = 'client-secret-7be2'
const PLUGIN_TOKEN = 'plugin-token-5d0a93'

function withUser(fake: FakeApiServer, user: string[], server = fake.url): string {
  return fake
    .kubeconfig({ server })
    .replace('    token: fake-token-123\n', `${user.map((line) => `    ${line}`).join('\n')}\n`)
}

/** An exec plugin as a shell one-liner: `sh -c SCRIPT sh ARG_SECRET`. */
function execUser(script: string): string[] {
  return [
    'exec:',
    '  apiVersion: client.authentication.k8s.io/v1',
    '  command: /bin/sh',
    `  args: ["-c", ${JSON.stringify(script)}, "sh", "--client-secret=${ARG_SECRET}"]`,
    '  interactiveMode: Never'
  ]
}

/**
 * The one request a client of `kubeconfig` makes, its namespace check: what it failed with, or
 * undefined. A kubeconfig the client cannot be built from rejects.
 */
async function checkShop(kubeconfig: string, masked: string[]): Promise<Error | undefined> {
  const client = await connect({
    kubeconfig,
    env,
    mask: (s) => masked.push(s),
    tuning: FAST_TUNING
  })
  try {
    await client.checkNamespaces(['shop'])
    return undefined
  } catch (error) {
    return error as Error
  } finally {
    client.close()
  }
}

/** The Authorization header of the one request a client of `kubeconfig` makes. */
async function authorizationSent(
  fake: FakeApiServer,
  kubeconfig: string,
  masked: string[]
): Promise<unknown> {
  const failed = await checkShop(kubeconfig, masked)
  if (failed !== undefined) throw failed
  return fake.requestsTo('GET', '/api/v1/namespaces/shop')[0]?.headers.authorization
}

async function failure(kubeconfig: string, masked: string[] = []): Promise<Error> {
  const failed = await checkShop(kubeconfig, masked)
  if (failed !== undefined) return failed
  throw new Error('the request did not fail')
}

describe('credential commands', () => {
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

  it('a failing exec plugin: its name and exit code, never its stderr or arguments', async () => {
    const error = await failure(
      withUser(fake, execUser(`echo "token ${STDERR_SECRET} rejected: $1" >&2; exit 7`))
    )
    expect(error).toBeInstanceOf(ClusterError)
    expect(error.message).toContain('exec credential plugin "sh"')
    expect(error.message).toContain('exit code 7')
    expect(error.message).not.toContain(STDERR_SECRET)
    expect(error.message).not.toContain(ARG_SECRET)
    expect(fake.requestsTo('GET', '/api/v1/namespaces/shop')).toHaveLength(0)
  })

  it('a plugin that prints no valid ExecCredential: said so, its output not quoted', async () => {
    const error = await failure(withUser(fake, execUser(`echo "${PLUGIN_TOKEN} not json"`)))
    expect(error.message).toContain('printed no valid ExecCredential')
    expect(error.message).not.toContain(PLUGIN_TOKEN)
  })

  it('a plugin that cannot start: the error code only', async () => {
    const kubeconfig = withUser(fake, execUser('true')).replace(
      'command: /bin/sh',
      'command: /nonexistent/get-token'
    )
    const error = await failure(kubeconfig)
    expect(error.message).toContain('"get-token" could not be started (ENOENT)')
    expect(error.message).not.toContain(ARG_SECRET)
  })

  it('the token a plugin returns is masked before a request carries it', async () => {
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: PLUGIN_TOKEN }
    })
    const masked: string[] = []
    const kubeconfig = withUser(fake, execUser(`echo '${credential}'`))
    expect(await authorizationSent(fake, kubeconfig, masked)).toBe(`Bearer ${PLUGIN_TOKEN}`)
    expect(masked).toEqual([PLUGIN_TOKEN])
  })

  it("a plugin runs without the Action's inputs (github-token, the kubeconfig) in its environment", async () => {
    const credential = JSON.stringify({
      apiVersion: 'client.authentication.k8s.io/v1',
      kind: 'ExecCredential',
      status: { token: PLUGIN_TOKEN }
    })
    process.env['INPUT_GITHUB-TOKEN'] = 'ghs_input_token_value'
    try {
      // exits 9 when it can see any INPUT_ variable; PATH (its own settings) is still there
      const script = `env | grep -q '^INPUT_' && exit 9; [ -n "$PATH" ] || exit 8; echo '${credential}'`
      const client = await connect({
        kubeconfig: withUser(fake, execUser(script)),
        env,
        mask: () => {},
        tuning: FAST_TUNING
      })
      await client.checkNamespaces(['shop'])
      client.close()
    } finally {
      delete process.env['INPUT_GITHUB-TOKEN']
    }
    expect(fake.requestsTo('GET', '/api/v1/namespaces/shop')).toHaveLength(1)
  })

  it("the oidc auth-provider's unexpired id-token is carried and masked", async () => {
    const idToken = unexpiredIdToken()
    const masked: string[] = []
    const kubeconfig = withUser(fake, [
      'auth-provider:',
      '  name: oidc',
      `  config: {idp-issuer-url: "https://issuer.invalid", client-id: gate, id-token: "${idToken}"}`
    ])
    expect(await authorizationSent(fake, kubeconfig, masked)).toBe(`Bearer ${idToken}`)
    expect(masked).toContain(idToken)
  })

  it("a plugin's client certificate and key reach the request's TLS options", async () => {
    const authenticate = await authenticationOf(
      withUser(
        fake,
        execUser(
          `echo '${JSON.stringify({
            apiVersion: 'client.authentication.k8s.io/v1',
            kind: 'ExecCredential',
            status: { clientCertificateData: 'CERT-PEM', clientKeyData: 'KEY-PEM' }
          })}'`
        ),
        'https://127.0.0.1:2'
      )
    )
    const opts: Applied = { headers: {} }
    await authenticate(opts)
    expect(opts).toMatchObject({ cert: 'CERT-PEM', key: 'KEY-PEM' })
    expect(opts.headers.Authorization).toBeUndefined()
  })

  it.each([
    [
      'gcp',
      'was removed from kubectl, which refuses it: use the gke-gcloud-auth-plugin exec credential plugin instead'
    ],
    [
      'azure',
      'was removed from kubectl, which refuses it: use the kubelogin exec credential plugin (github.com/Azure/kubelogin) instead'
    ],
    ['custom', 'is none kubectl has (only oidc)']
  ])(
    'the %s auth-provider: refused as kubectl refuses it, its command never run',
    async (name, why) => {
      const error = await checkShop(
        withUser(fake, [
          'auth-provider:',
          `  name: ${name}`,
          '  config:',
          '    cmd-path: /bin/sh',
          `    cmd-args: -c 'echo ${STDERR_SECRET}; exit 5' sh ${ARG_SECRET}`
        ]),
        []
      ).then(
        () => undefined,
        (e: unknown) => e as Error
      )
      expect(error).toBeInstanceOf(InputError)
      expect(fake.requests).toHaveLength(0)
      expect(error?.message).toBe(
        `Invalid kubeconfig: user "tester"'s auth-provider "${name}" ${why}`
      )
    }
  )
})

describe('userinfo in server and proxy-url', () => {
  it('is stripped from the description and every error, and masked', async () => {
    const masked: string[] = []
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: c',
      '  cluster:',
      '    server: https://admin:srv-pass-91f3@127.0.0.1:2',
      '- name: p',
      '  cluster:',
      '    server: https://127.0.0.1:2',
      '    proxy-url: http://proxyuser:proxy-pass-27ab@127.0.0.1:3',
      'users:',
      '- name: u',
      '  user: {username: admin}',
      'contexts:',
      '- name: c',
      '  context: {cluster: c, user: u}',
      'current-context: c',
      ''
    ].join('\n')
    const client = await connect({
      kubeconfig,
      env,
      mask: (s) => masked.push(s),
      tuning: FAST_TUNING
    })
    expect(client.description).toBe('https://127.0.0.1:2 (context c)')
    const error = await client.checkNamespaces(['shop']).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    client.close()
    expect(error).toBeInstanceOf(ClusterError)
    expect(error?.message).not.toMatch(/srv-pass|admin:/)
    expect(masked).toEqual(
      expect.arrayContaining(['admin:srv-pass-91f3', 'srv-pass-91f3', 'proxy-pass-27ab'])
    )
  })
})

describe('userinfo whose password holds an @', () => {
  // a password is at least MIN_SECRET_LENGTH long to be masked at all, hence not the short "p@ss"
  const single = (server: string): string =>
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: c, cluster: {server: "${server}"}}]`,
      'users: [{name: u, user: {username: admin}}]',
      'contexts: [{name: c, context: {cluster: c, user: u}}]',
      'current-context: c',
      ''
    ].join('\n')

  it('ends at the last @: the whole password is masked and the server shown is the host', async () => {
    const masked: string[] = []
    const client = await connect({
      kubeconfig: single('https://user:p@ss-91f3@127.0.0.1:6443'),
      env,
      mask: (s) => masked.push(s),
      tuning: FAST_TUNING
    })
    client.close()
    expect(masked).toEqual(expect.arrayContaining(['p@ss-91f3', 'user:p@ss-91f3']))
    expect(client.description).toBe('https://127.0.0.1:6443 (context c)')
    expect(withoutUserinfo('GET https://user:p@ss-91f3@host:6443/api failed')).toBe(
      'GET https://host:6443/api failed'
    )
  })

  it('masks a percent-encoded password both as written and decoded', async () => {
    const masked: string[] = []
    const client = await connect({
      kubeconfig: single('https://u:p%40ss-91f3@127.0.0.1:6443'),
      env,
      mask: (s) => masked.push(s),
      tuning: FAST_TUNING
    })
    client.close()
    expect(masked).toEqual(expect.arrayContaining(['p@ss-91f3', 'p%40ss-91f3']))
    expect(client.description).toBe('https://127.0.0.1:6443 (context c)')
  })
})

describe('which kubeconfig values are masked', () => {
  const kubeconfigWith = (user: string): string =>
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: c, cluster: {server: "https://127.0.0.1:2"}}]',
      'users:',
      '- name: u',
      '  user:',
      user,
      'contexts: [{name: c, context: {cluster: c, user: u}}]',
      'current-context: c',
      ''
    ].join('\n')

  it('a YAML boolean or number as password is no secret, and refused as kubectl refuses it', async () => {
    const masked: string[] = []
    const error = await connect({
      kubeconfig: kubeconfigWith('    username: admin\n    password: true\n    token: 12345678'),
      env,
      mask: (s) => masked.push(s)
    }).then(
      () => undefined,
      (e: unknown) => e as Error
    )
    expect(error?.message).toBe(
      'Invalid kubeconfig: users[0].user.password is a boolean, not a string, which kubectl refuses too'
    )
    expect(masked).toEqual([])
  })

  it('exec env values are masked only when their name says they are credentials', () => {
    const masked: string[] = []
    maskUsers(
      [
        {
          name: 'u',
          exec: {
            command: 'get-token',
            env: [
              { name: 'AWS_PROFILE', value: 'production' },
              { name: 'AWS_SECRET_ACCESS_KEY', value: 'aws-secret-value' }
            ]
          }
        }
      ],
      (s) => masked.push(s)
    )
    expect(masked).toEqual(['aws-secret-value'])
  })

  it('a kubeconfig that does not parse: real values of credential keys, no YAML syntax', async () => {
    const masked: string[] = []
    const broken = [
      'users:',
      '- name: u',
      '  user:',
      '    password: true',
      '    token: |',
      '      block-token-value',
      '    client-key-data: [unclosed',
      '    refresh-token: abc',
      '    access-token: "quoted-access-token"',
      '    id-token: plain-id-token # a comment',
      '  bad: [unclosed',
      ''
    ].join('\n')
    const error = await connect({ kubeconfig: broken, env, mask: (s) => masked.push(s) }).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(InputError)
    expect(masked.sort()).toEqual(['plain-id-token', 'quoted-access-token'])
  })

  // The quadratic scan took seconds for 40,000 spaces, so a megabyte of them would take hours: the
  // test's timeout is the bound, with orders of magnitude to spare on a loaded machine.
  it('masks a token padded with a megabyte of spaces', () => {
    const masked: string[] = []
    const padded = `users:\n- user:\n    token: a${' '.repeat(1 << 20)}b-token-value\n  bad: [\n`
    maskRawSecrets(padded, (secret) => masked.push(secret))
    expect(masked).toEqual([`a${' '.repeat(1 << 20)}b-token-value`])
  })
})
