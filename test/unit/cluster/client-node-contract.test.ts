// What src/cluster relies on in @kubernetes/client-node's public API, checked directly, so that an
// upgrade that changes it fails here by name rather than somewhere downstream:
// - credentials.ts: a KubeConfig's `users` can be replaced; an authenticator added with
//   addAuthenticator is asked only for users no built-in one claims (a user without exec and
//   auth-provider), its header and client certificate reach a request, and what it throws reaches
//   the caller as is; loadFromClusterAndUser plus applyToHTTPSOptions apply an auth-provider's token.
// - request.ts (and so the watch): applySecurityAuthentication authenticates a RequestContext, and
//   IsomorphicFetchHttpLibrary's answer body is a stream that gives what has arrived before the
//   answer ends, and ends when the request's signal aborts.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  KubeConfig,
  RequestContext,
  type User
} from '@kubernetes/client-node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeApiServer, openStream } from '../../helpers/fake-apiserver.ts'

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
    const context = new RequestContext('https://127.0.0.1:2/api', HttpMethod.GET)
    await kubeConfig.applySecurityAuthentication(context)
    expect(authenticator.asked).toEqual(['u'])
    expect(context.getHeaders().Authorization).toBe('Bearer custom-token-1234')
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
    const context = new RequestContext('https://127.0.0.1:2/api', HttpMethod.GET)
    await expect(kubeConfig.applySecurityAuthentication(context)).rejects.toBe(failure)
    expect(given).toBe(stripped)
  })

  it('a client certificate an authenticator sets gets a TLS dispatcher on the request', async () => {
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
    const context = new RequestContext('https://127.0.0.1:2/api', HttpMethod.GET)
    await kubeConfig.applySecurityAuthentication(context)
    expect(context.getDispatcher()).toBeDefined()
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

describe('client-node: the transport', () => {
  let fake: FakeApiServer
  beforeEach(async () => {
    fake = await FakeApiServer.start()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('IsomorphicFetchHttpLibrary: the body streams what arrived before the answer ends, and stops on abort', async () => {
    fake.on('GET', '/api/v1/namespaces', (_request, response) => {
      openStream(response).send('ADDED', { metadata: { name: 'first' } })
    })
    const kubeConfig = new KubeConfig()
    kubeConfig.loadFromString(fake.kubeconfig())
    const context = new RequestContext(`${fake.url}/api/v1/namespaces?watch=true`, HttpMethod.GET)
    await kubeConfig.applySecurityAuthentication(context)
    const abort = new AbortController()
    context.setSignal(abort.signal)
    const response = await new IsomorphicFetchHttpLibrary().send(context).toPromise()
    expect(response.httpStatusCode).toBe(200)
    expect(fake.requestsTo('GET', '/api/v1/namespaces')[0]?.headers.authorization).toBe(
      'Bearer fake-token-123'
    )
    const reader = response.body.stream()!.getReader()
    const first = await reader.read()
    expect(Buffer.from(first.value!).toString('utf8')).toContain('"first"')
    abort.abort()
    await expect(reader.read()).rejects.toThrow()
  })
})
