// A pull request's manifest is read before the API server ever sees it: every name and list the
// CRDs and apimachinery bound must be refused here, at exit 2, before predict's work starts.
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/runtime/errors.ts'
import { parseManifestText } from '../../../src/read/manifests.ts'

const refusal = async (text: string): Promise<string> => {
  try {
    await parseManifestText(text, 'pr.yaml')
  } catch (e) {
    expect(e).toBeInstanceOf(InputError)
    return (e as Error).message
  }
  throw new Error('expected an InputError')
}

/** `count` lines of YAML, each made by `line` from its index. */
const lines = (count: number, line: (i: number) => string, separator = ''): string =>
  Array.from({ length: count }, (_, i) => line(i)).join(separator)

const parentRefs = (count: number): string =>
  lines(count, (i) => `  - name: edge\n    sectionName: l${i}\n`)

const route = (spec: string, name = 'web', namespace = 'shop'): string =>
  `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ${JSON.stringify(name)}
  namespace: ${JSON.stringify(namespace)}
spec:
${spec}`

describe('the CRD limits', () => {
  it('accepts 32 parentRefs and refuses 33, naming the field and the limit', async () => {
    await expect(
      parseManifestText(route(`  parentRefs:\n${parentRefs(32)}`), 'pr.yaml')
    ).resolves.toHaveLength(1)
    expect(await refusal(route(`  parentRefs:\n${parentRefs(33)}`))).toBe(
      'pr.yaml document 1 (HTTPRoute web): field "spec.parentRefs" has 33 items; the API server accepts at most 32'
    )
  })

  it('refuses 200,000 parentRefs at the list length, before any other work', async () => {
    const refs = Array.from({ length: 200_000 }, () => ({ name: 'edge' }))
    const text = JSON.stringify({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { parentRefs: refs }
    })
    expect(await refusal(text)).toContain(
      'field "spec.parentRefs" has 200000 items; the API server accepts at most 32'
    )
  })

  it('names the path of a nested list and of a long string', async () => {
    const matches = lines(65, () => '    - path: {type: PathPrefix, value: /}\n')
    expect(
      await refusal(route(`  parentRefs:\n  - name: edge\n  rules:\n  - matches:\n${matches}`))
    ).toContain('field "spec.rules[0].matches" has 65 items; the API server accepts at most 64')
    const host = `${'a'.repeat(250)}.com`
    expect(await refusal(route(`  hostnames: [shop.example.com, ${host}]`))).toContain(
      'field "spec.hostnames[1]" is longer than the 253 characters the API server accepts'
    )
    const backend = 'b'.repeat(254)
    expect(
      await refusal(route(`  rules:\n  - backendRefs:\n    - name: ${backend}\n      port: 80`))
    ).toContain('field "spec.rules[0].backendRefs[0].name" is longer than the 253 characters')
  })

  it('counts characters as the API server does, not UTF-16 units', async () => {
    // 253 astral characters are 506 UTF-16 units and still within the limit
    const name = '😀'.repeat(253)
    await expect(
      parseManifestText(route(`  rules:\n  - name: ${JSON.stringify(name)}`), 'pr.yaml')
    ).resolves.toHaveLength(1)
  })

  it('takes the largest limit a served version allows: TLSRoute hostnames, TCPRoute rules', async () => {
    const hostnames = lines(1024, (i) => `h${i}.example.com`, ', ')
    const tls = `apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TLSRoute
metadata: {name: tls, namespace: shop}
spec:
  hostnames: [${hostnames}]
`
    await expect(parseManifestText(tls, 'pr.yaml')).resolves.toHaveLength(1)
    expect(await refusal(tls.replace('[', '[extra.example.com, '))).toContain(
      'field "spec.hostnames" has 1025 items; the API server accepts at most 1024'
    )
    const rules = lines(17, () => '  - backendRefs: [{name: db, port: 5432}]\n')
    expect(
      await refusal(`apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: db, namespace: shop}
spec:
  rules:
${rules}`)
    ).toContain('field "spec.rules" has 17 items; the API server accepts at most 16')
  })

  it('bounds Gateways and ReferenceGrants too, and leaves other kinds to the API server', async () => {
    const listeners = lines(65, (i) => `  - {name: l${i}, port: ${8000 + i}, protocol: HTTP}\n`)
    expect(
      await refusal(`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: contour
  listeners:
${listeners}`)
    ).toContain(
      '(Gateway edge): field "spec.listeners" has 65 items; the API server accepts at most 64'
    )
    const from = lines(
      17,
      (i) => `  - {group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: ns${i}}\n`
    )
    expect(
      await refusal(`apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: from-all, namespace: shop}
spec:
  from:
${from}  to:
  - {group: '', kind: Service}
`)
    ).toContain(
      '(ReferenceGrant from-all): field "spec.from" has 17 items; the API server accepts at most 16'
    )
    const many = lines(500, (i) => `  k${i}: v`, '\n')
    await expect(
      parseManifestText(
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n${many}\n`,
        'pr.yaml'
      )
    ).resolves.toHaveLength(1)
  })
})

describe('the names the API server accepts', () => {
  it('refuses a Route name that is not a DNS-1123 subdomain, cleaned and quoted', async () => {
    const message = await refusal(
      route('  parentRefs: [{name: edge}]', 'Web\n::error::pwned\u001b[31m')
    )
    expect(message).toMatch(
      /^pr\.yaml document 1: field "metadata\.name" ".*" is not a DNS-1123 subdomain/
    )
    expect(message).not.toMatch(/[\n\u001b]/)
    expect(message).not.toContain('\n::')
  })

  it('refuses a namespace that is not a DNS-1123 label', async () => {
    expect(await refusal(route('  parentRefs: [{name: edge}]', 'web', 'Shop'))).toContain(
      'field "metadata.namespace" "Shop" is not a DNS-1123 label'
    )
    expect(await refusal(route('  parentRefs: [{name: edge}]', 'web', 'a'.repeat(64)))).toContain(
      'field "metadata.namespace"'
    )
  })

  it('holds Services to DNS-1035 and Namespaces to DNS-1123 labels', async () => {
    expect(
      await refusal('apiVersion: v1\nkind: Service\nmetadata: {name: 1web, namespace: shop}\n')
    ).toContain('field "metadata.name" "1web" is not a DNS-1035 label')
    expect(await refusal('apiVersion: v1\nkind: Namespace\nmetadata: {name: shop.eu}\n')).toContain(
      'field "metadata.name" "shop.eu" is not a DNS-1123 label'
    )
    // dots are fine in a Route's name, and a Secret's name is the API server's to judge
    await expect(
      parseManifestText(route('  parentRefs: [{name: edge}]', 'web.v2'), 'pr.yaml')
    ).resolves.toHaveLength(1)
    await expect(
      parseManifestText('apiVersion: v1\nkind: Secret\nmetadata: {name: Tls_Cert}\n', 'pr.yaml')
    ).resolves.toHaveLength(1)
  })

  it('refuses a 1 MB name with a message of one short line', async () => {
    const message = await refusal(route('  parentRefs: [{name: edge}]', '\u009d'.repeat(1 << 20)))
    expect(message.length).toBeLessThan(400)
    expect(message).toContain('field "metadata.name"')
  })
})
