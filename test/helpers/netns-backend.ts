// A tiny HTTP backend that runs inside a test network namespace (started by test/helpers/netns.ts with
// `ip netns exec`, under the Node 24 that runs the tests, which strips the types).
// argv: address port answersFile logFile. The answers file is read on every request, so a test changes
// what the backend answers while a gate runs: {"default": Answer, "paths": {"/x": Answer}}, with
// Answer = {"status": 200, "body": "...", "contentType": "text/plain"}. Each request is appended to
// the log file as one JSON line.
import { appendFileSync, readFileSync } from 'node:fs'
import http from 'node:http'

interface Answer {
  status?: number
  body?: string
  contentType?: string
}

const [address = '', port = '', answersFile = '', logFile = ''] = process.argv.slice(2)

const server = http.createServer((req, res) => {
  let answers: { default?: Answer; paths?: Record<string, Answer> } = {}
  try {
    answers = JSON.parse(readFileSync(answersFile, 'utf8')) as typeof answers
  } catch {
    // no answers yet: the default below
  }
  const path = (req.url ?? '/').split('?')[0] ?? '/'
  const answer: Answer = answers.paths?.[path] ?? answers.default ?? {}
  // logged once the answer is chosen: a test that waits for a request and then changes the answers
  // never changes the answer to that request
  appendFileSync(
    logFile,
    `${JSON.stringify({ method: req.method, url: req.url, host: req.headers.host ?? '' })}\n`
  )
  res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'text/plain' })
  res.end(answer.body ?? 'netns backend\n')
})

server.listen(Number(port), address, () => process.stdout.write('listening\n'))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
