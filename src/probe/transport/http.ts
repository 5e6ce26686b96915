// The probe's only network I/O: one HTTP or HTTPS request to the Gateway's address, with the Route's
// hostname as Host header and TLS server name. No redirect is followed (a redirect is an answer), no
// connection is reused (each attempt sees the data plane as it is now), and the body is read only as
// far as the comparison needs. A name is resolved here, the target guard judges the address it
// resolved to, and the connection goes to exactly that address: a DNS answer that changes between
// the check and the connect cannot slip past. The request carries no credential and nothing of the
// runner's environment: only Host, User-Agent, Accept and the Route's own header matches.
import { lookup as dnsLookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { rootCertificates } from 'node:tls'
import { TARGET_REFUSED, type RawAnswer } from '../rules/answer.ts'
import type { ProbeRequest } from '../rules/plan-requests.ts'
import {
  isLiteral,
  judgeAddress,
  refusedName,
  type GuardDecision,
  type GuardPolicy
} from '../rules/target-guard.ts'
import { TOOL_VERSION } from '../../runtime/version.ts'

export interface SendOptions {
  timeoutMs: number
  /** extra CA certificates (PEM), trusted beside the system's */
  ca?: string
  /** the skip-TLS-verify opt-in */
  skipTlsVerify: boolean
  policy: GuardPolicy
  /** resolves a Gateway's Hostname address (tests give their own) */
  lookup?: (hostname: string) => Promise<{ address: string }>
}

export type Send = (request: ProbeRequest, options: SendOptions) => Promise<RawAnswer>

const BODY_BYTES = 4096

export const sendProbe: Send = async (request, options) => {
  const started = performance.now()
  let target: GuardDecision
  try {
    target = await guardedAddress(request, options)
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    return {
      headers: {},
      body: '',
      durationMs: Math.round(performance.now() - started),
      error: {
        code: e.code ?? 'ERROR',
        message: `could not resolve ${request.address}: ${e.message}`
      }
    }
  }
  if (!target.allowed) {
    return {
      headers: {},
      body: '',
      durationMs: 0,
      error: { code: TARGET_REFUSED, message: target.why }
    }
  }
  return send(request, target.ip, options, started)
}

/** The address the connection goes to, once the guard has judged it (a name resolved first). */
async function guardedAddress(request: ProbeRequest, options: SendOptions): Promise<GuardDecision> {
  if (isLiteral(request.address))
    return judgeAddress(request.address, request.origin, options.policy)
  const named = refusedName(request.address)
  if (named !== undefined) return { allowed: false, why: named, what: 'a cloud metadata service' }
  const { address } = await (options.lookup ?? dnsLookup)(request.address)
  const decision = judgeAddress(address, request.origin, options.policy)
  return decision.allowed
    ? decision
    : {
        ...decision,
        why: `${request.address} resolves to ${address}, which is ${decision.what}`
      }
}

type Finish = (answer: Omit<RawAnswer, 'durationMs'>) => void

/**
 * One request to the guarded address. Resolves exactly once, with whichever comes first: the answer,
 * an error or the timeout; whatever comes after it is dropped, so a late event cannot change an
 * answer the round has already judged.
 */
function send(
  request: ProbeRequest,
  ip: string,
  options: SendOptions,
  started: number
): Promise<RawAnswer> {
  const elapsed = (): number => Math.round(performance.now() - started)
  return new Promise((resolve) => {
    let done = false
    const finish: Finish = (answer) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve({ ...answer, durationMs: elapsed() })
    }
    const fail = (code: string, message: string): void =>
      finish({ headers: {}, body: '', error: { code, message } })
    let req: http.ClientRequest
    try {
      req = openRequest(request, ip, options)
    } catch (error) {
      // a header value the Route allows but HTTP does not: no request can be sent
      const e = error as NodeJS.ErrnoException
      resolve({
        headers: {},
        body: '',
        durationMs: 0,
        error: { code: e.code ?? 'ERROR', message: e.message }
      })
      return
    }
    const timer = setTimeout(() => {
      fail('ETIMEDOUT', `no answer within ${options.timeoutMs} ms`)
      req.destroy()
    }, options.timeoutMs)
    req.on('error', (error: NodeJS.ErrnoException) => {
      fail(error.code ?? 'ERROR', error.message)
    })
    req.on('response', (res) => {
      readAnswer(res, finish)
    })
    req.end()
  })
}

/**
 * The request, not sent yet: connected to the guarded IP, never to a name resolved again, and
 * carrying only the headers the module comment lists. Throws for a header value HTTP does not allow.
 */
function openRequest(request: ProbeRequest, ip: string, options: SendOptions): http.ClientRequest {
  const common = {
    host: ip,
    port: request.port,
    method: request.method,
    path: request.path,
    headers: {
      ...request.headers,
      host: request.host,
      'user-agent': `route-gate/${TOOL_VERSION} (traffic verification)`,
      accept: '*/*'
    },
    // a fresh agent: no reused connection, and no proxy that NODE_USE_ENV_PROXY gives the global one
    agent: false as const
  }
  return request.scheme === 'https'
    ? https.request({
        ...common,
        ...(request.servername !== undefined &&
          isIP(request.servername) === 0 && { servername: request.servername }),
        rejectUnauthorized: request.verifyTls && !options.skipTlsVerify,
        ...(options.ca !== undefined && { ca: [...rootCertificates, options.ca] })
      })
    : http.request(common)
}

/**
 * The status, headers and first BODY_BYTES of the body: enough to tell a routed answer from the
 * no-route one, and a large or endless body cannot hold the round up.
 */
function readAnswer(res: http.IncomingMessage, finish: Finish): void {
  const chunks: Buffer[] = []
  let size = 0
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  const complete = (): void => {
    finish({
      status: res.statusCode,
      headers,
      body: Buffer.concat(chunks).subarray(0, BODY_BYTES).toString('utf8')
    })
    res.destroy()
  }
  res.on('data', (chunk: Buffer) => {
    chunks.push(chunk)
    size += chunk.length
    if (size >= BODY_BYTES) complete()
  })
  res.on('end', complete)
  // a body cut off after the head still gave a status: that is the answer
  res.on('error', complete)
  res.on('aborted', complete)
}
