// The target guard's decisions, as a pure function: which addresses a probe may be sent to, by who
// chose them (a Gateway's status or the workflow's gateway-address) and traffic-allowed-cidrs.
import { describe, expect, it } from 'vitest'
import {
  judgeAddress,
  parseCidr,
  refusedName,
  refusedTarget,
  type GuardPolicy
} from '../../../src/probe/rules/target-guard.ts'

const OPEN: GuardPolicy = { allowedCidrs: [] }
const only = (...cidrs: string[]): GuardPolicy => ({
  allowedCidrs: cidrs.map((c) => parseCidr(c)!)
})

describe('judgeAddress', () => {
  it.each([
    ['169.254.169.254', 'a cloud metadata service address'],
    ['fd00:ec2::254', 'a cloud metadata service address'],
    ['fd00:ec2:0:0:0:0:0:254', 'a cloud metadata service address'],
    ['FD00:EC2::254', 'a cloud metadata service address'],
    ['100.100.100.200', 'a cloud metadata service address'],
    ['::ffff:169.254.169.254', 'a cloud metadata service address'],
    ['::ffff:a9fe:a9fe', 'a cloud metadata service address'],
    ['[fd00:ec2::254]', 'a cloud metadata service address'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'a cloud metadata service address'],
    ['::169.254.169.254', 'a cloud metadata service address'],
    ['::ffff:0:169.254.169.254', 'a cloud metadata service address'],
    ['64:ff9b::169.254.169.254', 'a cloud metadata service address'],
    ['64:ff9b:0:0:0:0:6464:64c8', 'a cloud metadata service address']
  ])('never sends to %s, whoever chose it', (ip, what) => {
    for (const origin of ['status', 'input'] as const) {
      expect(judgeAddress(ip, origin, OPEN)).toEqual({
        allowed: false,
        why: `${ip} is ${what}`,
        what
      })
    }
  })

  it.each([
    ['169.254.0.1', 'a link-local address'],
    ['169.254.255.255', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['fe80::1%eth0', 'a link-local address'],
    ['febf:ffff::1', 'a link-local address'],
    ['::ffff:169.254.1.1', 'a link-local address'],
    ['64:ff9b::a9fe:101', 'a link-local address'],
    ['::ffff:0:e000:1', 'a multicast address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['255.255.255.255', 'a broadcast address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['ff02::1', 'a multicast address']
  ])('refuses %s from a Gateway status: %s', (ip, what) => {
    expect(judgeAddress(ip, 'status', OPEN)).toEqual({
      allowed: false,
      why: `${ip} is ${what}`,
      what
    })
  })

  it('takes those from gateway-address: the workflow owner chose them', () => {
    expect(judgeAddress('169.254.10.10', 'input', OPEN)).toEqual({
      allowed: true,
      ip: '169.254.10.10'
    })
    expect(judgeAddress('fe80::1%eth0', 'input', OPEN)).toEqual({ allowed: true, ip: 'fe80::1' })
  })

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '203.0.113.7',
    '2001:db8::1',
    '::1',
    '64:ff9b::a01:203',
    'fec0::1',
    '169.253.255.255',
    '169.255.0.0'
  ])('allows %s from status when no CIDRs narrow it', (ip) => {
    expect(judgeAddress(ip, 'status', OPEN)).toEqual({ allowed: true, ip })
  })

  it('narrows status addresses, and only status addresses, to traffic-allowed-cidrs', () => {
    const policy = only('10.0.0.0/8', 'fd00::/8')
    expect(judgeAddress('10.200.0.1', 'status', policy)).toEqual({
      allowed: true,
      ip: '10.200.0.1'
    })
    expect(judgeAddress('fd12::1', 'status', policy)).toEqual({ allowed: true, ip: 'fd12::1' })
    expect(judgeAddress('127.0.0.1', 'status', policy)).toEqual({
      allowed: false,
      why: '127.0.0.1 is outside traffic-allowed-cidrs (10.0.0.0/8, fd00::/8)',
      what: 'outside traffic-allowed-cidrs (10.0.0.0/8, fd00::/8)'
    })
    // an IPv4 range never admits an IPv6 address, nor the other way round
    expect(judgeAddress('::ffff:7f00:1', 'status', only('::/0'))).toMatchObject({ allowed: false })
    expect(judgeAddress('127.0.0.1', 'input', policy)).toEqual({ allowed: true, ip: '127.0.0.1' })
  })

  it('judges a NAT64 address by the IPv4 address it carries too, and connects to it as given', () => {
    expect(judgeAddress('64:ff9b::a01:203', 'status', only('10.0.0.0/8'))).toEqual({
      allowed: true,
      ip: '64:ff9b::a01:203'
    })
    expect(judgeAddress('64:ff9b::cb00:7107', 'status', only('10.0.0.0/8'))).toMatchObject({
      allowed: false
    })
  })

  it('does not let traffic-allowed-cidrs admit a refused range', () => {
    expect(judgeAddress('169.254.1.1', 'status', only('169.254.0.0/16'))).toMatchObject({
      allowed: false,
      why: '169.254.1.1 is a link-local address'
    })
  })

  it('judges only addresses', () => {
    expect(judgeAddress('gateway.example.com', 'status', OPEN)).toEqual({
      allowed: false,
      why: 'gateway.example.com is not an IP address',
      what: 'not an IP address'
    })
  })
})

describe('names', () => {
  it.each(['metadata.google.internal', 'METADATA.google.internal.', 'metadata.azure.internal'])(
    'refuses the metadata service name %s before it is resolved',
    (name) => {
      expect(refusedName(name)).toBe(`${name} is a cloud metadata service`)
      expect(refusedTarget(name, 'input', OPEN)).toBe(`${name} is a cloud metadata service`)
    }
  )

  it('leaves other names to be judged by what they resolve to', () => {
    expect(refusedTarget('lb.example.com', 'status', only('10.0.0.0/8'))).toBeUndefined()
    expect(refusedTarget('169.254.169.254', 'input', OPEN)).toBe(
      '169.254.169.254 is a cloud metadata service address'
    )
  })
})

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', 'ipv4'],
    ['10.1.2.3', 'ipv4'],
    ['fd00::/8', 'ipv6'],
    ['::/0', 'ipv6']
  ])('reads %s', (text, family) => {
    expect(parseCidr(text)).toMatchObject({ text, family })
  })

  it.each([
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0/8',
    'example.com/8',
    '10.0.0.0/8/8',
    '10.0.0.0/x',
    '10.0.0.0/'
  ])('refuses %s', (text) => {
    expect(parseCidr(text)).toBeUndefined()
  })
})
