// A DNS server that answers every question with NXDOMAIN, run inside a test network namespace (by
// test/helpers/isolated-runner.ts with `ip netns exec`): a lookup there ends as a real resolver's
// "no such name" would, and no query leaves the namespace. argv: address
import dgram from 'node:dgram'

const [address = '127.0.0.1'] = process.argv.slice(2)
const socket = dgram.createSocket('udp4')

socket.on('message', (query, peer) => {
  if (query.length < 12) return
  // header and the first question only: its name's labels end at a zero byte, then type and class
  let end = 12
  while (end < query.length && query[end] !== 0) end += (query[end] ?? 0) + 1
  end += 5
  if (end > query.length) return
  const reply = Buffer.from(query.subarray(0, end))
  reply[2] = 0x80 | ((query[2] ?? 0) & 0x79) // a response, same opcode, recursion desired as asked
  reply[3] = 0x80 | 3 // recursion available, NXDOMAIN
  reply.writeUInt16BE(1, 4)
  reply.writeUInt32BE(0, 6)
  reply.writeUInt16BE(0, 10)
  socket.send(reply, peer.port, peer.address)
})

socket.bind(53, address, () => process.stdout.write('listening\n'))
process.on('SIGTERM', () => socket.close(() => process.exit(0)))
