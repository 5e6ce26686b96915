// The verb table and its parser, in process: every verb's help lists the flags that verb takes and
// no other, each listed flag parses for it, kubectl's short forms and --flag=value read as the long
// flag, and a mistake is named with the nearest right word. The same through dist/cli.js is in
// cli.test.ts.
import { describe, expect, it } from 'vitest'
import { parseCommandLine, usage, VERBS, type VerbName } from '../../src/cli/verbs.ts'
import { InputError } from '../../src/runtime/errors.ts'
import { parseSettings } from '../../src/inputs/parse.ts'
import { INPUTS } from '../../src/inputs/table.ts'

function helpOf(argv: string[]): string {
  const parsed = parseCommandLine(argv)
  if (!('help' in parsed)) throw new Error(`no help for ${argv.join(' ')}`)
  return parsed.help
}

function valuesOf(argv: string[]): Record<string, string> {
  const parsed = parseCommandLine(argv)
  if ('help' in parsed) throw new Error(`help for ${argv.join(' ')}`)
  return Object.fromEntries(parsed.values)
}

function errorOf(argv: string[]): string {
  try {
    parseCommandLine(argv)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error(`no error for ${argv.join(' ')}`)
}

/** the long flags a help text lists, in order */
const listed = (help: string): string[] =>
  [...help.matchAll(/^ {2}(?:-\w, )?--([a-z-]+)/gm)].map((m) => m[1]!)

const BOOLEAN = new Set(
  INPUTS.filter((i) => i.default === 'true' || i.default === 'false').map((i) => i.name)
)

// What each verb must and must not take: the gate's flags on check and apply, the monitor's on
// monitor, dump's few on dump; Action-only inputs on none.
const EXPECTED: Record<VerbName, { has: string[]; lacks: string[] }> = {
  check: {
    has: ['manifests', 'routes', 'selector', 'namespace', 'all-namespaces', 'from-file', 'format'],
    lacks: ['dry-run', 'previous', 'state-out', 'fail-on', 'output-file', 'summary', 'comment']
  },
  apply: {
    has: ['manifests', 'dry-run', 'fail-fast', 'verify-traffic', 'kubeconfig', 'format'],
    lacks: ['from-file', 'previous', 'output-file', 'annotations', 'github-token', 'mode']
  },
  monitor: {
    has: ['previous', 'state-out', 'fail-on', 'watch-duration', 'from-file', 'all-namespaces'],
    lacks: [
      'manifests',
      'routes',
      'timeout',
      'dry-run',
      'verify-traffic',
      'traffic-successes'
    ].concat(['output-file', 'cluster-name'])
  },
  predict: {
    has: [
      'manifests',
      'from-file',
      'namespace',
      'strict',
      'kubeconfig',
      'format',
      'report-file',
      'timeout'
    ],
    lacks: ['routes', 'selector', 'dry-run', 'verify-traffic', 'previous', 'output-file']
  },
  dump: {
    has: ['output-file', 'kubeconfig', 'context'],
    lacks: ['manifests', 'routes', 'namespace', 'format', 'timeout', 'from-file']
  }
}

describe.each(VERBS.map((v) => [v.name, v] as const))('route-gate %s', (name, verb) => {
  it('--help, -h and help <verb> give the same help, headed by the verb', () => {
    const help = helpOf([name, '--help'])
    expect(help.split('\n')[0]).toBe(`route-gate ${name}: ${verb.summary}`)
    expect(helpOf([name, '-h'])).toBe(help)
    expect(helpOf(['help', name])).toBe(help)
    // help wins over other flags, even ones that would be wrong
    expect(helpOf([name, '--no-such-flag', '--help'])).toBe(help)
  })

  it('lists the flags it takes and no other', () => {
    const flags = listed(helpOf([name, '--help']))
    expect(flags).toEqual(expect.arrayContaining(EXPECTED[name].has))
    for (const flag of EXPECTED[name].lacks) expect(flags).not.toContain(flag)
    expect(new Set(flags).size).toBe(flags.length)
  })

  it('parses every flag its help lists', () => {
    for (const flag of listed(helpOf([name, '--help']))) {
      const argv = BOOLEAN.has(flag) ? [name, `--${flag}`] : [name, `--${flag}`, 'x']
      expect(valuesOf(argv)[flag], flag).toBe(BOOLEAN.has(flag) ? 'true' : 'x')
    }
  })

  it('refuses a flag its help does not list', () => {
    const other = INPUTS.find((i) => !i.actionOnly && !verb.takes(i.name))!
    expect(errorOf([name, `--${other.name}`, 'x'])).toMatch(
      new RegExp(`^Flag --${other.name} belongs to route-gate \\w+, not ${name} `)
    )
  })
})

describe('flags as kubectl reads them', () => {
  it('-n, -A, -l and -o are --namespace, --all-namespaces, --selector and --format', () => {
    expect(valuesOf(['check', '-n', 'shop', '-l', 'app=web', '-o', 'yaml'])).toEqual({
      namespace: 'shop',
      selector: 'app=web',
      format: 'yaml'
    })
    expect(valuesOf(['monitor', '-A'])).toEqual({ 'all-namespaces': 'true' })
  })

  it('takes the value joined on: --flag=value, -n=value and -nvalue', () => {
    expect(valuesOf(['check', '--namespace=shop', '--timeout=2m'])).toEqual({
      namespace: 'shop',
      timeout: '2m'
    })
    expect(valuesOf(['check', '-n=shop'])).toEqual({ namespace: 'shop' })
    expect(valuesOf(['check', '-nshop', '-ojson'])).toEqual({ namespace: 'shop', format: 'json' })
    // a value with = in it stays whole
    expect(valuesOf(['check', '--selector=app=web,tier!=db'])).toEqual({
      selector: 'app=web,tier!=db'
    })
  })

  it('--output is --format, as kubectl names it', () => {
    expect(valuesOf(['check', '--output', 'markdown'])).toEqual({ format: 'markdown' })
    expect(valuesOf(['apply', '--output=json'])).toEqual({ format: 'json' })
  })

  it('a boolean flag stands alone or takes true/false after it or joined on', () => {
    expect(valuesOf(['check', '--strict', '--fail-fast', 'false', '-n', 'a'])).toEqual({
      strict: 'true',
      'fail-fast': 'false',
      namespace: 'a'
    })
    expect(valuesOf(['check', '--strict=false'])).toEqual({ strict: 'false' })
  })

  it('--manifests and --routes repeat; each repeat is one more entry', () => {
    expect(
      valuesOf(['apply', '--manifests', 'a.yaml', '--manifests=b/', '--routes', 'httproute/x'])
    ).toEqual({ manifests: 'a.yaml\nb/', routes: 'httproute/x' })
    expect(errorOf(['check', '-n', 'a', '--namespace', 'b'])).toBe(
      'Flag --namespace is given twice'
    )
  })

  it('- is a value: --from-file - and --manifests - read stdin', () => {
    expect(valuesOf(['check', '--from-file', '-', '-o', 'yaml'])).toEqual({
      'from-file': '-',
      format: 'yaml'
    })
    expect(valuesOf(['apply', '--manifests', '-'])).toEqual({ manifests: '-' })
  })

  it('dump -o is the file to write, not a format', () => {
    expect(valuesOf(['dump', '-o', 'dump.yaml'])).toEqual({ 'output-file': 'dump.yaml' })
    expect(valuesOf(['dump', '--output', '-'])).toEqual({ 'output-file': '-' })
  })
})

describe('what each verb means for the settings', () => {
  const settingsOf = (argv: string[]) => {
    const parsed = parseCommandLine(argv)
    if ('help' in parsed) throw new Error('help')
    return parseSettings((n) => parsed.values.get(n), parsed.verb.command, {
      apply: parsed.verb.apply,
      kubeconfig: 'path'
    })
  }

  it('check locates the Routes of --manifests and writes nothing; apply applies them', () => {
    expect(settingsOf(['check', '--manifests', 'app.yaml'])).toMatchObject({
      command: 'gate',
      manifests: ['app.yaml'],
      applyManifests: false
    })
    expect(settingsOf(['apply', '--manifests', 'app.yaml'])).toMatchObject({
      command: 'gate',
      applyManifests: true
    })
    expect(settingsOf(['apply', '--manifests', 'app.yaml', '--dry-run']).dryRun).toBe(true)
  })

  it('--kubeconfig is a path, as kubectl takes it; -o yaml is the YAML report', () => {
    const settings = settingsOf([
      'check',
      '-n',
      'shop',
      '--kubeconfig',
      'kube/config',
      '-o',
      'yaml'
    ])
    expect(settings).toMatchObject({ kubeconfigFile: 'kube/config', format: 'yaml' })
    expect(settings.kubeconfig).toBeUndefined()
  })

  it('monitor and dump are their own commands', () => {
    expect(settingsOf(['monitor', '-A']).command).toBe('monitor')
    expect(settingsOf(['dump', '-o', '-']).command).toBe('dump')
  })
})

describe('mistakes name the nearest right word', () => {
  it.each([
    [['check', '--namepsace', 'shop'], 'Unknown flag --namepsace: did you mean --namespace?'],
    [['apply', '--manifest', 'a.yaml'], 'Unknown flag --manifest: did you mean --manifests?'],
    [['monitor', '--previus', 'x'], 'Unknown flag --previus: did you mean --previous?'],
    [['dump', '--kubconfig', 'x'], 'Unknown flag --kubconfig: did you mean --kubeconfig?'],
    [['check', '-x'], 'Unknown flag -x']
  ])('%j', (argv, message) => {
    expect(errorOf(argv)).toBe(`${message} (see route-gate ${argv[0]} --help)`)
  })

  it('a flag of the Action alone says so', () => {
    expect(errorOf(['check', '--comment'])).toBe(
      'Flag --comment is an input of the Action only (see route-gate check --help)'
    )
  })

  it.each([
    ['aply', 'did you mean apply? '],
    ['chek', 'did you mean check? '],
    ['monitr', 'did you mean monitor? '],
    ['deploy', '']
  ])('unknown verb %s', (verb, suggestion) => {
    const message = `Unknown command "${verb}": ${suggestion}use one of check, apply, monitor, predict, dump (see route-gate --help)`
    expect(errorOf([verb])).toBe(message)
    expect(errorOf(['help', verb])).toBe(message)
  })

  it('a word where a flag goes, and a flag without its value', () => {
    expect(errorOf(['check', 'httproute/web'])).toBe(
      'Unexpected argument "httproute/web": flags look like --name value (see route-gate check --help)'
    )
    expect(errorOf(['check', '--timeout'])).toBe('Flag --timeout needs a value')
  })
})

describe('route-gate --help', () => {
  it('lists every verb, and help alone is the same', () => {
    const help = usage()
    const lines = help.split('\n')
    for (const verb of VERBS) {
      const line = lines.find((l) => l.startsWith(`  ${verb.name} `))
      expect(line?.endsWith(verb.summary), verb.name).toBe(true)
    }
    expect(helpOf(['--help'])).toBe(help)
    expect(helpOf(['-h'])).toBe(help)
    expect(helpOf(['help'])).toBe(help)
  })
})
