// A loopback TCP server that accepts connections and never answers: a GitHub API that hangs.
import { createServer, type AddressInfo, type Socket } from 'node:net'

export interface SilentServer {
  url: string
  connections(): number
  close(): void
}

export async function silentServer(): Promise<SilentServer> {
  let count = 0
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    count++
    sockets.add(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => count,
    close: () => {
      for (const s of sockets) s.destroy()
      server.close()
    }
  }
}
