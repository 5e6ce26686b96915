// The benchmark's own line to the API server: the admin client certificate from the test cluster's
// kubeconfig, keep-alive connections, JSON in and out. Kept apart from client-node so that what the
// bench itself costs is a known number of plain requests.
import https from 'node:https'
import { KubeConfig } from '@kubernetes/client-node'

export interface Tls {
  ca: Buffer
  cert: Buffer
  key: Buffer
}

export class ApiError extends Error {
  readonly status: number

  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

export class AdminApi {
  readonly server: URL
  readonly tls: Tls
  private readonly agent: https.Agent

  constructor(kubeconfigPath: string, maxSockets = 32) {
    const config = new KubeConfig()
    config.loadFromFile(kubeconfigPath)
    const cluster = config.getCurrentCluster()
    const user = config.getCurrentUser()
    if (!cluster?.caData || !user?.certData || !user.keyData) {
      throw new Error(`${kubeconfigPath}: expected embedded CA, client certificate and key`)
    }
    this.server = new URL(cluster.server)
    this.tls = {
      ca: Buffer.from(cluster.caData, 'base64'),
      cert: Buffer.from(user.certData, 'base64'),
      key: Buffer.from(user.keyData, 'base64')
    }
    this.agent = new https.Agent({ keepAlive: true, maxSockets, ...this.tls })
  }

  /** The raw response body; any status other than 2xx is an ApiError. */
  text(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json'
  ): Promise<string> {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    return new Promise((resolve, reject) => {
      const request = https.request(
        {
          host: this.server.hostname,
          port: this.server.port,
          method,
          path,
          agent: this.agent,
          headers: {
            Accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) })
          }
        },
        (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('error', reject)
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            const status = response.statusCode ?? 0
            if (status >= 200 && status < 300) resolve(text)
            else
              reject(
                new ApiError(status, `${method} ${path}: HTTP ${status}: ${text.slice(0, 300)}`)
              )
          })
        }
      )
      request.on('error', reject)
      request.end(payload)
    })
  }

  async json<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    return JSON.parse(await this.text(method, path, body, contentType)) as T
  }

  close(): void {
    this.agent.destroy()
  }
}

/** Runs `work` over `items` with at most `limit` in flight; the first failure rejects. */
export async function inPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}
