import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { InputError } from '../../src/runtime/errors.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import { INPUTS } from '../../src/inputs/table.ts'
import {
  parseDuration,
  parseGatewayAddress,
  parseStatusRanges,
  parseRouteRef,
  parseSelector,
  splitList
} from '../../src/inputs/values.ts'
import { loadTrafficCa } from '../../src/probe/transport/ca.ts'
import { makeTestPki } from '../helpers/probe-servers.ts'

const settingsFrom = (values: Record<string, string>) =>
  parseSettings((name) => values[name], 'gate')

const errorOf = (fn: () => unknown): string => {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(InputError)
    return (e as Error).message
  }
  throw new Error('expected an InputError')
}

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1h', 3_600_000],
    ['250ms', 250],
    ['2m30s', 150_000]
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  it.each(['5 minutes', '5', '', 'm5', '1.5m', '-1s', '5M'])(
    'rejects %j with the usage',
    (text) => {
      expect(errorOf(() => parseDuration(text))).toBe(
        `Invalid timeout "${text}": use a duration like 90s, 5m or 1h`
      )
    }
  )

  it('rejects zero and more than a day', () => {
    expect(errorOf(() => parseDuration('0s'))).toMatch(/longer than zero/)
    expect(errorOf(() => parseDuration('25h'))).toMatch(/at most 24h/)
  })
})

describe('routes entries', () => {
  it('parses kind/name and kind/namespace/name, kind case-insensitive', () => {
    expect(parseRouteRef('httproute/checkout')).toEqual({ kind: 'HTTPRoute', name: 'checkout' })
    expect(parseRouteRef('GRPCRoute/payments/api')).toEqual({
      kind: 'GRPCRoute',
      namespace: 'payments',
      name: 'api'
    })
    expect(parseRouteRef('tlsroutes/edge/passthrough').kind).toBe('TLSRoute')
  })

  it('names the entry and what is wrong', () => {
    expect(errorOf(() => parseRouteRef('checkout'))).toBe(
      'Invalid routes entry "checkout": use kind/name or kind/namespace/name, e.g. httproute/checkout'
    )
    expect(errorOf(() => parseRouteRef('ingress/web'))).toMatch(/unknown kind "ingress"/)
    expect(errorOf(() => parseRouteRef('httproute/Bad_NS/web'))).toMatch(/namespace "Bad_NS"/)
    expect(errorOf(() => parseRouteRef('httproute/a/b/c'))).toMatch(/use kind\/name/)
  })

  it('splits on newlines and commas and drops blanks', () => {
    expect(splitList('a, b\n\n  c ,\n   \n')).toEqual(['a', 'b', 'c'])
  })
})

describe('parseSelector', () => {
  it.each([
    'app=web',
    'app==web,tier!=db',
    'env in (prod,staging)',
    '!legacy',
    'team',
    'x notin (a)',
    'app='
  ])('accepts %s', (s) => {
    expect(parseSelector(s)).toBe(s)
  })

  it.each(['=web', 'app in prod', 'app=web,,x', 'a b'])('rejects %j', (s) => {
    expect(errorOf(() => parseSelector(s))).toMatch(/^Invalid selector/)
  })
})

describe('parseSettings', () => {
  it('applies the documented defaults', () => {
    const s = settingsFrom({ routes: 'httproute/web' })
    expect(s).toMatchObject({
      kinds: ['HTTPRoute', 'GRPCRoute', 'TLSRoute', 'TCPRoute', 'UDPRoute'],
      timeoutMs: 300_000,
      conditions: ['Accepted', 'ResolvedRefs'],
      failFast: false,
      strict: false,
      dryRun: false,
      summary: true,
      annotations: true,
      allNamespaces: false,
      format: 'text'
    })
  })

  it('gives each bad value a precise error', () => {
    expect(errorOf(() => settingsFrom({ routes: 'httproute/web', timeout: '5 minutes' }))).toBe(
      'Invalid timeout "5 minutes": use a duration like 90s, 5m or 1h'
    )
    expect(errorOf(() => settingsFrom({ routes: 'httproute/web', 'fail-fast': 'maybe' }))).toBe(
      'Invalid fail-fast "maybe": use true or false'
    )
    expect(
      errorOf(() => settingsFrom({ routes: 'httproute/web', kinds: 'HTTPRoute,Ingress' }))
    ).toMatch(/^Invalid kinds entry "Ingress": use one of HTTPRoute/)
    expect(errorOf(() => settingsFrom({ routes: 'httproute/web', namespace: 'Shop' }))).toBe(
      'Invalid namespace "Shop": not a valid namespace name'
    )
    expect(
      errorOf(() => settingsFrom({ routes: 'httproute/web', conditions: 'Accepted,Not Valid' }))
    ).toMatch(/^Invalid conditions entry "Not Valid"/)
    expect(errorOf(() => settingsFrom({ routes: 'httproute/web', format: 'xml' }))).toBe(
      'Invalid format "xml": use one of text, json, yaml, markdown'
    )
  })

  it('refuses contradictory or empty scopes', () => {
    expect(errorOf(() => settingsFrom({}))).toMatch(/^Nothing to gate/)
    expect(
      errorOf(() => settingsFrom({ namespace: 'a', 'all-namespaces': 'true', selector: 'x=y' }))
    ).toMatch(/either namespace or all-namespaces/)
    expect(errorOf(() => settingsFrom({ routes: 'grpcroute/api', kinds: 'HTTPRoute' }))).toMatch(
      /its kind is not in kinds/
    )
    expect(errorOf(() => settingsFrom({ routes: 'httproute/a', selector: 'app=web' }))).toMatch(
      /either routes .* or selector/
    )
    expect(errorOf(() => settingsFrom({ 'dry-run': 'true', routes: 'httproute/a' }))).toMatch(
      /dry-run needs manifests/
    )
  })

  it('keeps kubeconfig content untrimmed-inside and optional', () => {
    expect(settingsFrom({ routes: 'httproute/web', kubeconfig: '  ' }).kubeconfig).toBeUndefined()
    const content = 'apiVersion: v1\nkind: Config\n'
    expect(settingsFrom({ routes: 'httproute/web', kubeconfig: content }).kubeconfig).toBe(content)
  })
})

describe("the Action's mode names the CLI's verbs", () => {
  const actionSettings = (values: Record<string, string>) =>
    parseSettings((name) => ({ manifests: 'app.yaml', ...values })[name])

  it('gate (the default) and apply server-side apply the manifests; check only locates them', () => {
    expect(actionSettings({})).toMatchObject({ command: 'gate', applyManifests: true })
    expect(actionSettings({ mode: 'gate' })).toMatchObject({
      command: 'gate',
      applyManifests: true
    })
    expect(actionSettings({ mode: 'apply' })).toMatchObject({
      command: 'gate',
      applyManifests: true
    })
    expect(actionSettings({ mode: 'check' })).toMatchObject({
      command: 'gate',
      applyManifests: false,
      manifests: ['app.yaml']
    })
    expect(
      parseSettings((name) => ({ mode: 'monitor', 'all-namespaces': 'true' })[name])
    ).toMatchObject({
      command: 'monitor'
    })
  })

  it('predict: snapshot-partial declares the cluster-snapshot cut; off by default', () => {
    const predict = (values: Record<string, string>) =>
      actionSettings({ mode: 'predict', 'cluster-snapshot': 'dump.yaml', ...values })
    expect(predict({}).partialDump).toBe(false)
    expect(predict({ 'snapshot-partial': 'true' })).toMatchObject({
      partialDump: true,
      fromFile: 'dump.yaml'
    })
    expect(errorOf(() => predict({ 'snapshot-partial': 'yes please' }))).toMatch(
      /^Invalid snapshot-partial "yes please"/
    )
  })

  it('refuses dry-run with check, which never writes, and a mode it does not know', () => {
    expect(errorOf(() => actionSettings({ mode: 'check', 'dry-run': 'true' }))).toBe(
      'Invalid inputs: dry-run validates manifests for apply; check never writes to the cluster (use mode: apply)'
    )
    expect(actionSettings({ mode: 'apply', 'dry-run': 'true' }).dryRun).toBe(true)
    expect(errorOf(() => actionSettings({ mode: 'deploy' }))).toBe(
      'Invalid mode "deploy": use one of gate, check, apply, monitor, predict'
    )
  })
})

describe('action.yml', () => {
  const action = parse(readFileSync('action.yml', 'utf8')) as {
    inputs: Record<string, { description: string; default?: string }>
    runs: { using: string; main: string }
  }

  it('declares exactly the Action inputs of src/inputs with the same defaults', () => {
    const expected = INPUTS.filter((i) => !i.cliOnly)
    expect(Object.keys(action.inputs).sort()).toEqual(expected.map((i) => i.name).sort())
    for (const input of expected) {
      expect(action.inputs[input.name]?.default, input.name).toBe(input.default)
      expect(action.inputs[input.name]?.description, input.name).toBe(input.description)
    }
  })

  it('runs the committed bundle on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
  })

  it('every input appears in the README table', () => {
    const readme = readFileSync('README.md', 'utf8')
    for (const input of INPUTS) expect(readme, input.name).toContain(`| \`${input.name}\``)
  })
})

it('runs on Node 24', () => {
  expect(process.versions.node.split('.')[0]).toBe('24')
})

const trafficSettings = (values: Record<string, string>, command: 'gate' | 'monitor' = 'gate') =>
  parseSettings((name) => ({ routes: 'httproute/web', ...values })[name], command)

describe('verify-traffic inputs', () => {
  it('are off by default and parse when given', () => {
    expect(trafficSettings({})).toMatchObject({ verifyTraffic: false, trafficSkipTlsVerify: false })
    expect(
      trafficSettings({
        'verify-traffic': 'true',
        'gateway-address': '127.0.0.1',
        'expect-status': '200-399, 404'
      })
    ).toMatchObject({
      verifyTraffic: true,
      gatewayAddress: '127.0.0.1',
      expectStatus: [
        { from: 200, to: 399 },
        { from: 404, to: 404 }
      ]
    })
  })

  it('accept IPs and hostnames as gateway-address, never a URL or a port', () => {
    expect(parseGatewayAddress('Gw.Example.com')).toBe('gw.example.com')
    expect(parseGatewayAddress('[::1]')).toBe('::1')
    expect(errorOf(() => parseGatewayAddress('http://gw:8080'))).toMatch(
      /Invalid gateway-address "http:\/\/gw:8080": use an IP address or a hostname, without scheme or port/
    )
    expect(errorOf(() => parseGatewayAddress('gw:8080'))).toMatch(/without scheme or port/)
  })

  it('name the bad expect-status entry', () => {
    expect(errorOf(() => parseStatusRanges('200-399,2xx'))).toBe(
      'Invalid expect-status entry "2xx": use status codes and ranges like 200-399 or 200,204,404'
    )
    expect(errorOf(() => parseStatusRanges('399-200'))).toMatch(/"399-200"/)
    expect(errorOf(() => parseStatusRanges('99'))).toMatch(/"99"/)
  })

  it('read traffic-allowed-cidrs and traffic-show-body, and name a bad CIDR', () => {
    const s = trafficSettings({
      'verify-traffic': 'true',
      'traffic-allowed-cidrs': '10.0.0.0/8,\n fd00::/8',
      'traffic-show-body': 'true'
    })
    expect(s.trafficAllowedCidrs.map((c) => c.text)).toEqual(['10.0.0.0/8', 'fd00::/8'])
    expect(s.trafficShowBody).toBe(true)
    expect(trafficSettings({ 'verify-traffic': 'true' })).toMatchObject({
      trafficAllowedCidrs: [],
      trafficShowBody: false
    })
    expect(
      errorOf(() =>
        trafficSettings({
          'verify-traffic': 'true',
          'traffic-allowed-cidrs': '10.0.0.0/8,10.0.0.0/33'
        })
      )
    ).toBe(
      'Invalid traffic-allowed-cidrs entry "10.0.0.0/33": use CIDRs like 10.0.0.0/8 or fd00::/8, separated by commas or new lines'
    )
    expect(
      errorOf(() =>
        trafficSettings({ 'traffic-allowed-cidrs': '10.0.0.0/8', 'traffic-show-body': 'true' })
      )
    ).toBe(
      'Invalid inputs: traffic-allowed-cidrs, traffic-show-body only apply with verify-traffic: true'
    )
  })

  it('refuse a gateway-address that names a cloud metadata service', () => {
    expect(
      errorOf(() =>
        trafficSettings({ 'verify-traffic': 'true', 'gateway-address': '169.254.169.254' })
      )
    ).toBe(
      'Invalid gateway-address "169.254.169.254": 169.254.169.254 is a cloud metadata service address, which is never probed'
    )
    expect(
      errorOf(() =>
        trafficSettings({ 'verify-traffic': 'true', 'gateway-address': 'metadata.google.internal' })
      )
    ).toMatch(/metadata\.google\.internal is a cloud metadata service, which is never probed/)
    // the owner's own link-local choice stands
    expect(
      trafficSettings({ 'verify-traffic': 'true', 'gateway-address': '169.254.10.10' })
        .gatewayAddress
    ).toBe('169.254.10.10')
  })

  it('refuse traffic options without verify-traffic, and contradictions', () => {
    expect(
      errorOf(() => trafficSettings({ 'gateway-address': '10.0.0.1', 'expect-status': '200' }))
    ).toBe('Invalid inputs: gateway-address, expect-status only apply with verify-traffic: true')
    expect(
      errorOf(() =>
        trafficSettings({
          'verify-traffic': 'true',
          'traffic-ca': 'x',
          'traffic-skip-tls-verify': 'true'
        })
      )
    ).toMatch(/either traffic-ca .* or traffic-skip-tls-verify/)
    expect(
      errorOf(() => trafficSettings({ 'verify-traffic': 'true', 'from-file': 'dump.yaml' }))
    ).toMatch(
      /verify-traffic sends requests to a live Gateway; it cannot be combined with from-file/
    )
    expect(
      errorOf(() =>
        trafficSettings({ routes: '', 'verify-traffic': 'true', namespace: 'a' }, 'monitor')
      )
    ).toMatch(/verify-traffic belongs to the gate/)
  })
})

describe('loadTrafficCa', () => {
  const { ca } = makeTestPki(['ca-test.example.com'])

  it('takes PEM content or a file of it', async () => {
    expect(await loadTrafficCa(ca, '/')).toContain('BEGIN CERTIFICATE')
    const dir = await mkdtemp(path.join(os.tmpdir(), 'route-gate-ca-'))
    await writeFile(path.join(dir, 'ca.pem'), ca)
    try {
      expect(await loadTrafficCa('ca.pem', dir)).toBe(ca.trim())
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('is an input error for a missing file or one without a certificate', async () => {
    await expect(loadTrafficCa('nope.pem', '/nonexistent')).rejects.toThrow(
      /Invalid traffic-ca "nope.pem": not PEM content, and no readable file at that path \(ENOENT\)/
    )
    await expect(
      loadTrafficCa('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', '/')
    ).rejects.toThrow(/certificate 1 is not a valid X.509 certificate/)
  })
})
