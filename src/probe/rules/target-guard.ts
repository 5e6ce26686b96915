// Where a probe may send a request (pure). The address comes from a Gateway's status, which
// controllers copy from spec.addresses and anyone who may write a LoadBalancer Service's status can
// set, so an address there is not the workflow owner's choice: a runner must not be steered into
// its own cloud's metadata service or link-local network by it. The check runs on the IP the
// connection actually uses, after any name is resolved.
import { BlockList, isIP } from 'node:net'

/** Who chose the address: a Gateway's status, or the workflow through gateway-address. */
export type AddressOrigin = 'status' | 'input'

/** A refusal says why in a sentence, and what the address is (for "NAME resolves to IP, which is …"). */
export type GuardDecision =
  { allowed: true; ip: string } | { allowed: false; why: string; what: string }

function refuse(ip: string, what: string): GuardDecision {
  return { allowed: false, why: `${ip} is ${what}`, what }
}

/** Names of cloud metadata services: refused before they are resolved, whoever chose them. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.azure.internal'])

/** Cloud metadata service addresses: never probed, whoever chose them. */
const METADATA_ADDRESSES = blockList([
  ['ipv4', '169.254.169.254', 32],
  ['ipv6', 'fd00:ec2::254', 128],
  ['ipv4', '100.100.100.200', 32]
])

/** Refused when a Gateway's status names them; each with what it is, for the message. */
const REFUSED_RANGES: { what: string; list: BlockList }[] = [
  {
    what: 'a link-local',
    list: blockList([
      ['ipv4', '169.254.0.0', 16],
      ['ipv6', 'fe80::', 10]
    ])
  },
  {
    what: 'an unspecified',
    list: blockList([
      ['ipv4', '0.0.0.0', 8],
      ['ipv6', '::', 128]
    ])
  },
  { what: 'a broadcast', list: blockList([['ipv4', '255.255.255.255', 32]]) },
  {
    what: 'a multicast',
    list: blockList([
      ['ipv4', '224.0.0.0', 4],
      ['ipv6', 'ff00::', 8]
    ])
  }
]

type Family = 'ipv4' | 'ipv6'

function blockList(subnets: [Family, string, number][]): BlockList {
  const list = new BlockList()
  for (const [family, net, prefix] of subnets) list.addSubnet(net, prefix, family)
  return list
}

export interface Cidr {
  /** as written, for messages */
  text: string
  family: Family
  list: BlockList
}

/** "10.0.0.0/8" or "fd00::/8"; a bare address is a /32 or /128. Undefined when it is neither. */
export function parseCidr(text: string): Cidr | undefined {
  const [net = '', prefixText, ...rest] = text.split('/')
  const version = isIP(net)
  if (version === 0 || rest.length > 0) return undefined
  const max = version === 4 ? 32 : 128
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined
  const prefix = prefixText === undefined ? max : Number(prefixText)
  if (prefix > max) return undefined
  const family: Family = version === 4 ? 'ipv4' : 'ipv6'
  return { text, family, list: blockList([[family, net, prefix]]) }
}

/** The rules the gate's settings add: traffic-allowed-cidrs (empty: no further narrowing). */
export interface GuardPolicy {
  allowedCidrs: Cidr[]
}

/** A name (before resolution) that names a metadata service. */
export function refusedName(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '')
  return METADATA_NAMES.has(name) ? `${host} is a cloud metadata service` : undefined
}

/**
 * Whether a request may go to `ip` (an address, never a name). An address from the workflow itself
 * is checked against the metadata list only; an address from status also against the link-local,
 * unspecified, broadcast and multicast ranges and, when set, traffic-allowed-cidrs.
 */
export function judgeAddress(
  ip: string,
  origin: AddressOrigin,
  policy: GuardPolicy
): GuardDecision {
  const address = plainAddress(ip)
  const version = isIP(address)
  if (version === 0) return refuse(ip, 'not an IP address')
  const family: Family = version === 4 ? 'ipv4' : 'ipv6'
  // an IPv6 address that carries an IPv4 one reaches it through a translator: judged as both
  const forms: [string, Family][] = [[address, family]]
  const carried = family === 'ipv6' ? carriedIpv4(address) : undefined
  if (carried !== undefined) forms.push([carried, 'ipv4'])
  const inList = (list: BlockList): boolean => forms.some(([a, f]) => list.check(a, f))
  if (inList(METADATA_ADDRESSES)) {
    return refuse(ip, 'a cloud metadata service address')
  }
  if (origin === 'input') return { allowed: true, ip: address }
  const refused = REFUSED_RANGES.find((r) => inList(r.list))
  if (refused) return refuse(ip, `${refused.what} address`)
  const allowed = policy.allowedCidrs
  if (
    allowed.length > 0 &&
    !allowed.some((c) => forms.some(([a, f]) => c.family === f && c.list.check(a, f)))
  ) {
    return refuse(ip, `outside traffic-allowed-cidrs (${allowed.map((c) => c.text).join(', ')})`)
  }
  return { allowed: true, ip: address }
}

/**
 * Why the guard refuses an address before anything is sent: an IP literal is judged now, a name only
 * when it names a metadata service (what it resolves to is judged when the request is sent).
 */
export function refusedTarget(
  address: string,
  origin: AddressOrigin,
  policy: GuardPolicy
): string | undefined {
  if (!isLiteral(address)) return refusedName(address)
  const decision = judgeAddress(address, origin, policy)
  return decision.allowed ? undefined : decision.why
}

/** An IP address, maybe in brackets or with a zone, rather than a name. */
export function isLiteral(address: string): boolean {
  return isIP(plainAddress(address)) !== 0
}

/** A v4-mapped IPv6 address (::ffff:169.254.169.254) is the IPv4 address it maps; a zone is dropped. */
function plainAddress(ip: string): string {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1]
  if (dotted !== undefined) return dotted
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare)
  if (hex?.[1] === undefined || hex[2] === undefined) return bare
  return dottedQuad(hex[1], hex[2])
}

/**
 * The IPv4 address that an IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) or NAT64
 * (64:ff9b::a.b.c.d, RFC 6052) address carries, in any spelling. ::1 and :: carry none.
 */
function carriedIpv4(ipv6: string): string | undefined {
  // the URL parser writes an IPv6 address in its one canonical, compressed, hexadecimal form
  const canonical = new URL(`http://[${ipv6}]`).hostname
  const tail = /^\[(?:::|::ffff:0:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical)
  return tail?.[1] === undefined || tail[2] === undefined ? undefined : dottedQuad(tail[1], tail[2])
}

function dottedQuad(high: string, low: string): string {
  const hi = parseInt(high, 16)
  const lo = parseInt(low, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}
