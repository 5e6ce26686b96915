#!/usr/bin/env node
import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);
import{a as i,b as r}from"./chunks/chunk-RAAFQNQI.js";import{a as t}from"./chunks/chunk-CDGXJ3NW.js";import"./chunks/chunk-CLU7ULJ7.js";import"./chunks/chunk-5I7R3ZRB.js";r("cli");process.argv[2]==="--version"&&(process.stdout.write(`${t}
`),await i(0));var{main:o}=await import("./chunks/command-BIW5FI6Y.js");await i(await o(process.argv.slice(2)));
