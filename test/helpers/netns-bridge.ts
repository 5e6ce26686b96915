// A TCP listener inside a test network namespace that passes each connection to a Unix socket
// (started by test/helpers/isolated-runner.ts with `ip netns exec`). Unix sockets are files, not
// network endpoints, so they join the namespace to the host's loopback API server and nothing else.
// argv: address port unixSocketPath
import net from 'node:net'

const [address = '', port = '', socketPath = ''] = process.argv.slice(2)

const server = net.createServer((inside) => {
  const outside = net.connect(socketPath)
  inside.pipe(outside).pipe(inside)
  inside.on('error', () => outside.destroy())
  outside.on('error', () => inside.destroy())
})

server.listen(Number(port), address, () => process.stdout.write('listening\n'))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
