#!/usr/bin/env node
import { main } from './command.ts'

const code = await main(process.argv.slice(2))
process.exitCode = code
// A socket still closing (a watch, a keep-alive connection) must not hold the gate past its deadline.
setTimeout(() => process.exit(code), 1000).unref()
