// Hostname intersection and the hostname route-gate suggests for a listener.
import { describe, expect, it } from 'vitest'
import { acceptedHostnames, hostnameFor } from '../../../src/rules/hostnames.ts'

describe('hostnameFor', () => {
  it("a wildcard Route hostname gives its first label under the listener's domain", () => {
    expect(hostnameFor('*.example.com', '*.shop.example.org')).toBe('shop.example.com')
  })
})

describe('acceptedHostnames', () => {
  it('a Route without hostnames: nothing to list, whatever the listener', () => {
    expect(acceptedHostnames('*.example.com', [])).toEqual([])
  })
  it('keeps the Route order and drops the ones outside the wildcard', () => {
    expect(
      acceptedHostnames('*.example.com', ['b.example.com', 'example.com', 'a.b.example.com'])
    ).toEqual(['b.example.com', 'a.b.example.com'])
  })
})
