// `linkwell --help` against the commands the command line has (src/cli/commands.ts), so that the two
// cannot drift: every command is listed once with its usage, nothing else is listed, every option a
// command reads is on its usage line (and nothing more), and the commands the help's notes and the
// README name are ones there are.
import fs from 'node:fs'
import { Readable, Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { AnyCommand } from '../../src/cli/command.js'
import { COMMANDS, groupOf } from '../../src/cli/commands.js'
import { runCommandLine } from '../../src/cli/main.js'

/** What `linkwell …argv` prints, through the runner the bin calls; it must exit 0 and say nothing on stderr. */
async function run(...argv: string[]): Promise<string> {
  const written = { stdout: '', stderr: '' }
  const sink = (name: keyof typeof written) =>
    new Writable({
      write(chunk, _encoding, done) {
        written[name] += String(chunk)
        done()
      },
    })
  const code = await runCommandLine(argv, { env: {}, stdin: Readable.from([]), stdout: sink('stdout'), stderr: sink('stderr') })
  expect(written.stderr).toBe('')
  expect(code).toBe(0)
  return written.stdout
}

/**
 * The commands a help lists, each as its usage reads there (its lines joined): a listed command's
 * first line is indented two spaces; its usage carried on and its summary are indented further.
 */
function listedUsages(help: string): string[] {
  const lines = help.split('\n')
  const start = lines.findIndex((line) => line.startsWith('Commands'))
  expect(start, 'a Commands heading').toBeGreaterThan(0)
  const end = lines.indexOf('', start)
  const listed: string[] = []
  for (const line of lines.slice(start + 1, end)) {
    if (/^ {2}\S/.test(line)) listed.push(line.trim())
    // A usage carried on to a line of its own (the summary starts further right, at the same column every time).
    else if (/^ {6}\S/.test(line)) listed[listed.length - 1] += ` ${line.trim()}`
  }
  // The summary stands beside the usage when there is room: two spaces or more part them.
  return listed.map((entry) => entry.split(/ {2,}/)[0]!)
}

const usageLine = (command: AnyCommand) => `${command.name}${command.usage ? ` ${command.usage}` : ''}`

/** The `linkwell <word> [<word>]` and `npm run cli -- <word> [<word>]` a text names. */
function namedCommandLines(text: string): Array<{ mention: string; first: string; second?: string }> {
  return [...text.matchAll(/\b(?:linkwell|npm run cli --) ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)].map((match) => ({ mention: match[0], first: match[1]!, second: match[2] }))
}

/** Whether a mention names a command or a group of commands that the command line has. */
function isDefined({ first, second }: { first: string; second?: string }): boolean {
  const names = new Set(COMMANDS.map((command) => command.name))
  if (names.has(first)) return true
  const groups = new Set(COMMANDS.map(groupOf))
  return groups.has(first) && (second === undefined || names.has(`${first} ${second}`))
}

describe('linkwell --help', () => {
  it('lists every command once, in the order defined, each with its whole usage, and nothing else', async () => {
    expect(COMMANDS.length).toBeGreaterThan(20)
    expect(new Set(COMMANDS.map((command) => command.name)).size, 'no two commands of one name').toBe(COMMANDS.length)
    const help = await run('--help')
    expect(help).toMatch(/^Usage: linkwell <command> \[options\]\n/)
    expect(listedUsages(help)).toEqual(COMMANDS.map(usageLine))
    expect(await run('-h')).toBe(help)
  })

  it('names, in its notes, only commands there are', async () => {
    const help = await run('--help')
    const named = namedCommandLines(help.slice(help.lastIndexOf('\n\n')))
    expect(named.map(({ mention }) => mention)).toContain('linkwell account password')
    for (const mention of named) expect(isDefined(mention), mention.mention).toBe(true)
  })

  it('of a group lists just that group\'s commands, from any of its command lines; an unknown word gets the whole help', async () => {
    const accountCommands = COMMANDS.filter((command) => groupOf(command) === 'account').map(usageLine)
    expect(accountCommands.length).toBeGreaterThan(1)
    expect(listedUsages(await run('account', '--help'))).toEqual(accountCommands)
    expect(listedUsages(await run('account', 'create', '--email', 'x', '-h'))).toEqual(accountCommands)
    expect(listedUsages(await run('migrate', '--help'))).toEqual(['migrate'])
    expect(listedUsages(await run('frobnicate', '--help'))).toEqual(COMMANDS.map(usageLine))
  })

  it("shows on each command's usage line exactly the options it reads, the required ones outside brackets", () => {
    for (const command of COMMANDS) {
      const shown = [...new Set([...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!))].sort()
      if (!('options' in command)) {
        // A command that reads its own arguments (serve) shows none.
        expect(shown, command.name).toEqual([])
        continue
      }
      expect(shown, command.name).toEqual(Object.keys(command.options).sort())
      for (const required of command.required ?? []) {
        expect(command.usage, `${command.name}: --${required} is required`).toMatch(new RegExp(`(^| )--${required}\\b`))
        expect(command.usage, `${command.name}: --${required} is required`).not.toMatch(new RegExp(`\\[--${required}\\b`))
      }
      if (command.positional) expect(command.usage.split(' '), command.name).toContain(command.positional.toUpperCase())
    }
  })
})

describe("the README's command lines", () => {
  it('name only commands there are', () => {
    const named = namedCommandLines(fs.readFileSync('README.md', 'utf8'))
    expect(named.length).toBeGreaterThan(10)
    for (const mention of named) expect(isDefined(mention), mention.mention).toBe(true)
  })
})
