#!/usr/bin/env node
import { main } from './command.ts'
import { exitWhenFlushed } from './exit.ts'

await exitWhenFlushed(await main(process.argv.slice(2)))
