// What src/cluster relies on in @kubernetes/client-node's public API, checked directly, so that an
// upgrade that changes it fails here by name rather than somewhere downstream:
// - credentials.ts: a KubeConfig's `users` can be replaced; an authenticator added with
//   addAuthenticator is asked only for users no built-in one claims (a user without exec and
//   auth-provider), its header and client certificate reach a request, and what it throws reaches
//   the caller as is; loadFromClusterAndUser plus applyToHTTPSOptions apply an auth-provider's token.
// - request.ts (and so the watch): applyToHTTPSOptions puts the context's TLS material (CA, client
//   certificate and key, insecure-skip-tls-verify, tls-server-name) and authentication on Node
//   request options, and for a proxy-url an agent that goes through the proxy.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import https from 'node:https'
import { KubeConfig, type User } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'

type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0]

function recording(user: string, header: string): Authenticator & { asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    isAuthProvider: (candidate: User) => {
      asked.push(candidate.name)
      return candidate.name === user
    },
    applyAuthentication: (_user, opts) => {
      const fields = opts as { headers?: Record<string, string>; cert?: unknown; key?: unknown }
      ;(fields.headers ??= {}).Authorization = header
      return Promise.resolve()
    }
  }
}

function config(user: Record<string, unknown>, server = 'https://127.0.0.1:2'): KubeConfig {
  const kubeConfig = new KubeConfig()
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: server.startsWith('http:') }],
    users: [{ name: 'u', ...user }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx'
  })
  return kubeConfig
}

describe('client-node: authenticators', () => {
  it('addAuthenticator: asked for a user without exec or auth-provider; its header reaches the request', async () => {
    const kubeConfig = config({})
    const authenticator = recording('u', 'Bearer custom-token-1234')
    kubeConfig.addAuthenticator(authenticator)
    const opts: https.RequestOptions = {}
    await kubeConfig.applyToHTTPSOptions(opts)
    expect(authenticator.asked).toEqual(['u'])
    expect(opts.headers).toMatchObject({ Authorization: 'Bearer custom-token-1234' })
  })

  it('a built-in authenticator claims a user with exec first: why credentials.ts strips it', async () => {
    const kubeConfig = config({ exec: { command: '/nonexistent/get-token', args: [] } })
    const authenticator = recording('u', 'Bearer custom-token-1234')
    kubeConfig.addAuthenticator(authenticator)
    await expect(kubeConfig.applyToHTTPSOptions({})).rejects.toThrow()
    expect(authenticator.asked).toEqual([])
  })

  it('a replaced `users` entry is the current user, and what its authenticator throws arrives as is', async () => {
    const kubeConfig = config({ exec: { command: '/nonexistent/get-token' } })
    const stripped: User = { ...kubeConfig.users[0]!, exec: undefined }
    kubeConfig.users = [stripped]
    expect(kubeConfig.getCurrentUser()).toBe(stripped)
    const failure = new Error('ours')
    let given: User | undefined
    kubeConfig.addAuthenticator({
      isAuthProvider: (user: User) => user === stripped,
      applyAuthentication: (user) => {
        given = user
        return Promise.reject(failure)
      }
    })
    await expect(kubeConfig.applyToHTTPSOptions({})).rejects.toBe(failure)
    expect(given).toBe(stripped)
  })

  it('a client certificate an authenticator sets reaches the request options', async () => {
    const kubeConfig = config({})
    kubeConfig.addAuthenticator({
      isAuthProvider: () => true,
      applyAuthentication: (_user, opts) => {
        Object.assign(opts, { cert: 'CERT-PEM', key: 'KEY-PEM' })
        return Promise.resolve()
      }
    })
    const opts: { cert?: unknown; key?: unknown } = {}
    await kubeConfig.applyToHTTPSOptions(opts)
    expect(opts).toMatchObject({ cert: 'CERT-PEM', key: 'KEY-PEM' })
  })

  it("loadFromClusterAndUser + applyToHTTPSOptions: an auth-provider's token in headers.Authorization", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'route-gate-contract-'))
    writeFileSync(join(dir, 'token'), 'file-token-4c2a9e')
    for (const [authProvider, token] of [
      [{ name: 'tokenFile', config: { tokenFile: join(dir, 'token') } }, 'file-token-4c2a9e'],
      [{ name: 'gcp', config: { 'access-token': 'gcp-token-77d1' } }, 'gcp-token-77d1']
    ] as const) {
      const own = new KubeConfig()
      own.loadFromClusterAndUser(
        { name: 'x', server: 'https://credentials.invalid', skipTLSVerify: false },
        { name: 'u', authProvider }
      )
      const opts: { headers?: Record<string, unknown> } = {}
      await own.applyToHTTPSOptions(opts)
      expect(opts.headers?.Authorization).toBe(`Bearer ${token}`)
    }
  })

  it("the gcp provider's failing cmd-path: an error whose cause has the exit status", async () => {
    const own = new KubeConfig()
    own.loadFromClusterAndUser(
      { name: 'x', server: 'https://credentials.invalid', skipTLSVerify: false },
      {
        name: 'u',
        authProvider: { name: 'gcp', config: { 'cmd-path': '/bin/sh', 'cmd-args': '-c "exit 5"' } }
      }
    )
    const error = await own.applyToHTTPSOptions({}).then(
      () => undefined,
      (e: unknown) => e as { cause?: { status?: unknown } }
    )
    expect(error?.cause?.status).toBe(5)
  })
})

describe('client-node: the transport options', () => {
  it("applyToHTTPSOptions: the context's CA, client certificate and key, skip-verify and server name", async () => {
    const kubeConfig = new KubeConfig()
    kubeConfig.loadFromOptions({
      clusters: [
        {
          name: 'c',
          server: 'https://127.0.0.1:2',
          caData: Buffer.from('CA-PEM').toString('base64'),
          skipTLSVerify: true,
          tlsServerName: 'api.example'
        }
      ],
      users: [
        {
          name: 'u',
          certData: Buffer.from('CERT-PEM').toString('base64'),
          keyData: Buffer.from('KEY-PEM').toString('base64')
        }
      ],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx'
    })
    const opts: https.RequestOptions = {}
    await kubeConfig.applyToHTTPSOptions(opts)
    expect(opts.ca).toEqual(Buffer.from('CA-PEM'))
    expect(opts.cert).toEqual(Buffer.from('CERT-PEM'))
    expect(opts.key).toEqual(Buffer.from('KEY-PEM'))
    expect(opts.rejectUnauthorized).toBe(false)
    expect(opts.servername).toBe('api.example')
  })

  it('applyToHTTPSOptions: a proxy-url gets an agent of its own, which request.ts then uses', async () => {
    const kubeConfig = new KubeConfig()
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:2', proxyUrl: 'http://127.0.0.1:3' }],
      users: [{ name: 'u', token: 'proxy-token-1234' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx'
    })
    expect(kubeConfig.getCurrentCluster()?.proxyUrl).toBe('http://127.0.0.1:3')
    const opts: https.RequestOptions = {}
    await kubeConfig.applyToHTTPSOptions(opts)
    expect(opts.agent).toBeInstanceOf(https.Agent)
    expect(opts.agent).not.toBe(https.globalAgent)
  })
})
