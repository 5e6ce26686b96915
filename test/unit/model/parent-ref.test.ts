import { describe, expect, it } from 'vitest'
import { formatParentRef, normalizeParentRef, parentRefKey } from '../../../src/model/parent-ref.ts'

describe('normalizeParentRef', () => {
  it('fills group, kind and namespace the way the API server and the godoc do', () => {
    expect(normalizeParentRef({ name: 'edge' }, 'shop')).toEqual({
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      namespace: 'shop',
      name: 'edge'
    })
  })

  it('keeps an explicit group "" (Service parent) and reads "core" as the same group', () => {
    expect(
      normalizeParentRef({ group: '', kind: 'Service', name: 'api', port: 8080 }, 'shop')
    ).toEqual({
      group: '',
      kind: 'Service',
      namespace: 'shop',
      name: 'api',
      port: 8080
    })
    expect(normalizeParentRef({ group: 'core', kind: 'Service', name: 'api' }, 'shop').group).toBe(
      ''
    )
    expect(normalizeParentRef({ kind: 'Service', name: 'api' }, 'shop').group).toBe(
      'gateway.networking.k8s.io'
    )
  })

  it('treats an empty namespace as unset and keeps sectionName and port', () => {
    expect(
      normalizeParentRef({ name: 'edge', namespace: '', sectionName: 'https', port: 443 }, 'shop')
    ).toEqual({
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      namespace: 'shop',
      name: 'edge',
      sectionName: 'https',
      port: 443
    })
  })

  it('ignores fields of the wrong type', () => {
    expect(
      normalizeParentRef({ name: 3, kind: '', port: '80', sectionName: null }, 'shop')
    ).toEqual({
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      namespace: 'shop',
      name: ''
    })
    expect(normalizeParentRef('edge', 'shop').name).toBe('')
  })
})

describe('parentRefKey', () => {
  it('is equal for equal refs and differs on every field', () => {
    const base = normalizeParentRef({ name: 'edge', sectionName: 'https' }, 'shop')
    expect(parentRefKey(base)).toBe(parentRefKey({ ...base }))
    const variants = [
      { ...base, group: '' },
      { ...base, kind: 'ListenerSet' },
      { ...base, namespace: 'infra' },
      { ...base, name: 'edge2' },
      { ...base, sectionName: 'http' },
      { ...base, port: 443 }
    ]
    const keys = new Set([base, ...variants].map(parentRefKey))
    expect(keys.size).toBe(7)
  })
})

describe('formatParentRef', () => {
  const gw = normalizeParentRef({ name: 'edge', namespace: 'infra' }, 'shop')

  it('writes a Gateway as namespace/name with #section and :port', () => {
    expect(formatParentRef(gw)).toBe('infra/edge')
    expect(formatParentRef({ ...gw, sectionName: 'https' })).toBe('infra/edge#https')
    expect(formatParentRef({ ...gw, sectionName: 'https', port: 443 })).toBe('infra/edge#https:443')
  })

  it("leaves out the Route's own namespace when given", () => {
    expect(formatParentRef(gw, 'infra')).toBe('edge')
    expect(formatParentRef(gw, 'shop')).toBe('infra/edge')
  })

  it('names other kinds, and a group that does not fit the kind', () => {
    const svc = normalizeParentRef(
      { group: '', kind: 'Service', name: 'api', namespace: 'default', port: 8080 },
      'x'
    )
    expect(formatParentRef(svc)).toBe('Service default/api:8080')
    expect(formatParentRef({ ...svc, group: 'gateway.networking.k8s.io' })).toBe(
      'Service.gateway.networking.k8s.io default/api:8080'
    )
    expect(formatParentRef({ ...svc, group: 'core' })).toBe('Service.core default/api:8080')
    expect(formatParentRef({ ...gw, kind: 'ListenerSet' })).toBe('ListenerSet infra/edge')
    expect(
      formatParentRef({ ...gw, group: 'gateway.networking.x-k8s.io', kind: 'XListenerSet' })
    ).toBe('XListenerSet infra/edge')
  })
})
