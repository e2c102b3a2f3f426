// `linkwell --help` and `linkwell <group> --help`, made from the commands' own definitions
// (cli/commands.ts): a usage line per command, wrapped at top-level spaces, and its summary
// beside it or below it, so that the help cannot name a command or an option that is not there.
import type { CommandHelp } from './command.js'

/** The widest a line of the help gets (the summary of a command starts at SUMMARY_COLUMN). */
const WIDTH = 100
const SUMMARY_COLUMN = 38
/** How far a usage line that did not fit is carried on. */
const CONTINUED = '      '

const NOTES = `A is an account id or username; P is a plan id, name or code (a person for member: id, username
or e-mail). Times are UTC. The command line acts as the instance's operator: every role.
A --password given to \`account create\` is visible to other local users while the command runs;
set it with \`account password\` instead where that matters:
  printf '%s\\n' "$NEW_PASSWORD" | linkwell account password --account admin
The database is DATABASE_URL (default file:./data/linkwell.db); every command migrates it first.
Options: -h, --help  show this help.
`

/** The words of a usage line, an optional or grouped part (`[--name N]`, `'YYYY-MM-DD HH:MM:SS'`, `(… | …)`) kept whole. */
function usageParts(usage: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let part = ''
  for (const character of usage) {
    if (character === "'") quoted = !quoted
    else if (!quoted && (character === '[' || character === '(')) depth += 1
    else if (!quoted && (character === ']' || character === ')')) depth -= 1
    if (character === ' ' && depth === 0 && !quoted) {
      if (part) parts.push(part)
      part = ''
    } else {
      part += character
    }
  }
  if (part) parts.push(part)
  return parts
}

/** `words` joined into lines of at most WIDTH characters, the first after `start`, the others after `indent`; a line takes at least one word. */
function wrap(words: string[], start: string, indent: string): string[] {
  const lines: string[] = []
  let line = start
  for (const word of words) {
    const blank = line.trim() === ''
    const joined = blank ? `${line}${word}` : `${line} ${word}`
    if (!blank && joined.length > WIDTH) {
      lines.push(line)
      line = `${indent}${word}`
    } else {
      line = joined
    }
  }
  lines.push(line)
  return lines
}

/** A command's lines in the help: its usage, then its summary beside the usage when there is room, else below it. */
function commandLines({ name, usage, summary }: CommandHelp): string[] {
  // The name and the first part of the usage stay on one line, whatever its length.
  const [head, ...rest] = usageParts(usage)
  const usageLines = wrap(rest, `  ${name}${head ? ` ${head}` : ''}`, CONTINUED)
  const column = ' '.repeat(SUMMARY_COLUMN)
  const summaryLines = wrap(summary.split(' '), column, column)
  const last = usageLines.at(-1)!
  if (usageLines.length === 1 && last.length <= SUMMARY_COLUMN - 2) {
    return [`${last.padEnd(SUMMARY_COLUMN)}${summaryLines[0]!.trimStart()}`, ...summaryLines.slice(1)]
  }
  return [...usageLines, ...summaryLines]
}

/** The help of every command, or of those of one group (`account`), in the order given. */
export function helpText(commands: readonly CommandHelp[], group?: string): string {
  const shown = group === undefined ? commands : commands.filter((command) => command.name.split(' ')[0] === group)
  const heading = group === undefined ? 'Commands:' : `Commands of ${group} (linkwell --help lists every command):`
  return `Usage: linkwell <command> [options]\n\n${heading}\n${shown.flatMap(commandLines).join('\n')}\n\n${NOTES}`
}
