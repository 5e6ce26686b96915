// What src/cluster still relies on in @kubernetes/client-node's public API, checked directly, so that
// an upgrade that changes it fails here by name rather than somewhere downstream. A gate reads the
// kubeconfig and applies TLS and credentials itself (kubeconfig-text.ts, credentials.ts); client-node
// is imported only for what it alone has:
// - the oidc auth-provider (the one kubectl still has): loadFromClusterAndUser plus
//   applyToHTTPSOptions put its unexpired id-token in headers.Authorization;
// - a proxy-url: applyToHTTPSOptions on a KubeConfig of the server and proxy gives an agent that goes
//   through the proxy, built from the TLS material already on the options, and the same agent on the
//   next call (one connection pool for the run).
import https from 'node:https'
import { KubeConfig } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { unexpiredIdToken } from '../../helpers/recording-server.ts'

describe('client-node: auth-providers', () => {
  it("loadFromClusterAndUser + applyToHTTPSOptions: oidc's id-token in headers.Authorization", async () => {
    const idToken = unexpiredIdToken()
    const own = new KubeConfig()
    own.loadFromClusterAndUser(
      { name: 'x', server: 'https://credentials.invalid', skipTLSVerify: false },
      {
        name: 'u',
        authProvider: {
          name: 'oidc',
          config: {
            'idp-issuer-url': 'https://issuer.invalid',
            'client-id': 'gate',
            'id-token': idToken
          }
        }
      }
    )
    const opts: { headers: Record<string, unknown> } = { headers: {} }
    await own.applyToHTTPSOptions(opts)
    expect(opts.headers.Authorization).toBe(`Bearer ${idToken}`)
  })
})

describe('client-node: a proxy-url', () => {
  it('applyToHTTPSOptions: a proxy agent with the TLS material on the options, the same each call', async () => {
    const own = new KubeConfig()
    own.loadFromClusterAndUser(
      {
        name: 'c',
        server: 'https://127.0.0.1:2',
        proxyUrl: 'http://127.0.0.1:3',
        skipTLSVerify: false
      },
      { name: 'u' }
    )
    const ca = Buffer.from('CA-PEM')
    const first: https.RequestOptions = { ca, servername: 'api.internal', headers: {} }
    await own.applyToHTTPSOptions(first)
    expect(first.agent).toBeInstanceOf(https.Agent)
    expect(first.agent).not.toBe(https.globalAgent)
    expect((first.agent as https.Agent).options).toMatchObject({ ca, servername: 'api.internal' })
    const second: https.RequestOptions = { ca, headers: {} }
    await own.applyToHTTPSOptions(second)
    expect(second.agent).toBe(first.agent)
    // the credentials stay route-gate's: the user it was given has none
    expect(first.headers).toEqual({})
  })
})
