// What src/cluster still relies on in @kubernetes/client-node's public API, checked directly, so that
// an upgrade that changes it fails here by name rather than somewhere downstream. A gate reads the
// kubeconfig and applies TLS and credentials itself (kubeconfig-text.ts, credentials.ts); client-node
// is imported only for what it alone has:
// - an auth-provider (oidc, gcp or azure holding an access-token…): loadFromClusterAndUser plus
//   applyToHTTPSOptions put its token in headers.Authorization (a gcp or azure cmd-path is run by
//   route-gate itself, provider-command.ts);
// - a proxy-url: applyToHTTPSOptions on a KubeConfig of the server and proxy gives an agent that goes
//   through the proxy, built from the TLS material already on the options, and the same agent on the
//   next call (one connection pool for the run).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import https from 'node:https'
import { KubeConfig } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'

describe('client-node: auth-providers', () => {
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
      const opts: { headers: Record<string, unknown> } = { headers: {} }
      await own.applyToHTTPSOptions(opts)
      expect(opts.headers.Authorization).toBe(`Bearer ${token}`)
    }
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
