// Readers of the deployment files (Dockerfile, compose.yaml, the systemd unit, the .env examples)
// and of what they must agree with (src/config.ts, scripts/check-package.mjs, .ci/run), for the
// checks that need no Docker daemon: our CI has none.
import fs from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'

/** A path from the repository's root (vitest runs in it). */
export const repositoryPath = (relative: string) => path.resolve(relative)
export const readRepositoryFile = (relative: string) => fs.readFileSync(repositoryPath(relative), 'utf8')

export interface DockerInstruction {
  /** The stage's name (`FROM … AS name`), or its image when it has none. */
  stage: string
  keyword: string
  args: string
}

/**
 * The Dockerfile's instructions in order, each on one line: a backslash at a line's end continues
 * the instruction, and comment lines are dropped, inside a continued instruction too, as Docker
 * drops them.
 */
export function readDockerfile(text: string): DockerInstruction[] {
  const instructions: DockerInstruction[] = []
  let stage = ''
  let pending = ''
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue
    if (pending === '' && line.trim() === '') continue
    if (line.trimEnd().endsWith('\\')) {
      pending += `${line.trimEnd().slice(0, -1)} `
      continue
    }
    const whole = `${pending}${line}`.trim().replace(/\s+/g, ' ')
    pending = ''
    const [keyword = '', ...rest] = whole.split(' ')
    const args = rest.join(' ')
    if (keyword.toUpperCase() === 'FROM') stage = /\bAS\s+(\S+)$/i.exec(args)?.[1] ?? args
    instructions.push({ stage, keyword: keyword.toUpperCase(), args })
  }
  return instructions
}

/** The `--name=value` options at the start of an instruction's arguments, and what follows them. */
export function instructionOptions(args: string): { options: Map<string, string>; rest: string } {
  const options = new Map<string, string>()
  let rest = args
  for (let match = /^--([a-z-]+)=(\S+)\s*/.exec(rest); match; match = /^--([a-z-]+)=(\S+)\s*/.exec(rest)) {
    options.set(match[1]!, match[2]!)
    rest = rest.slice(match[0].length)
  }
  return { options, rest }
}

/** The shell commands of a RUN instruction (split at `&&`), each as its words. */
export function runCommands(args: string): string[][] {
  const { rest } = instructionOptions(args)
  return rest.split('&&').map((command) => command.trim().split(' ').filter(Boolean))
}

/** `--mount=type=bind,from=build,…` as its fields. */
export function mountFields(value: string): Record<string, string> {
  return Object.fromEntries(value.split(',').map((field) => field.split('=') as [string, string]))
}

/** The exec form of HEALTHCHECK's command (`HEALTHCHECK [options] CMD ["…", …]`). */
export function healthCheckCommand(instructions: DockerInstruction[]): string[] {
  const healthCheck = instructions.find((instruction) => instruction.keyword === 'HEALTHCHECK')
  const json = healthCheck && /\bCMD\s+(\[.*\])$/.exec(healthCheck.args)?.[1]
  if (!json) throw new Error('the Dockerfile has no HEALTHCHECK … CMD [exec form]')
  return JSON.parse(json) as string[]
}

/** The path the health check asks for: the `'/…'` its script appends to the address. */
export function healthCheckPath(command: string[]): string {
  const script = command.at(-1) ?? ''
  const found = /\+ '(\/[^']*)'\)/.exec(script)?.[1]
  if (!found) throw new Error(`no path found in the health check's script: ${script}`)
  return found
}

/** `NAME=value` lines of an .env file, commented-out ones included (they name optional settings). */
export function envFileVariables(text: string): string[] {
  return [...text.matchAll(/^\s*#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!)
}

/** compose.yaml, parsed. */
export function readCompose(): ComposeFile {
  return parseYaml(readRepositoryFile('compose.yaml')) as ComposeFile
}

export interface ComposeService {
  image?: string
  build?: string | { context?: string; dockerfile?: string }
  restart?: string
  env_file?: string | string[]
  environment?: Record<string, string | number | null> | string[]
  ports?: Array<string | { target: number; published?: string | number }>
  volumes?: Array<string | { type?: string; source?: string; target: string }>
  depends_on?: string[] | Record<string, { condition?: string }>
  healthcheck?: { test?: string[] | string }
}

export interface ComposeFile {
  services: Record<string, ComposeService>
  volumes?: Record<string, unknown>
}

/** A service's environment as a map, whichever of Compose's two forms it is written in. */
export function serviceEnvironment(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {}
  if (Array.isArray(environment)) {
    return Object.fromEntries(environment.map((entry) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]))
  }
  return Object.fromEntries(Object.entries(environment).map(([name, value]) => [name, String(value ?? '')]))
}

/** The `[section]`s of a systemd unit, each key with its values (a key may be given more than once). */
export function readUnitFile(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>()
  let section: Map<string, string[]> | undefined
  for (const line of text.split('\n').map((each) => each.trim())) {
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[(.+)\]$/.exec(line)
    if (header) {
      section = new Map()
      sections.set(header[1]!, section)
      continue
    }
    const equals = line.indexOf('=')
    if (!section || equals === -1) throw new Error(`not a unit file line: ${line}`)
    const key = line.slice(0, equals).trim()
    section.set(key, [...(section.get(key) ?? []), line.slice(equals + 1).trim()])
  }
  return sections
}

/** src/config.ts without its comments: only what the code reads counts. */
function configCode(): string {
  return readRepositoryFile('src/config.ts').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
}

/**
 * Every environment variable src/config.ts reads: `env.NAME`, `env['NAME']`, and the readers that
 * take the environment and a name (`readInteger(env, 'NAME'`, `readFlag(env, 'NAME'`, …).
 */
export function variablesReadByConfig(): Set<string> {
  const code = configCode()
  const patterns = [/\benv\.([A-Z][A-Z0-9_]*)\b/g, /\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g, /\b\w+\(\s*env\s*,\s*['"]([A-Z][A-Z0-9_]*)['"]/g]
  return new Set(patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!)))
}

/** The number a reader falls back to for `name` (`readInteger(env, 'NAME', 3000, …)`); undefined when none is written so. */
export function integerDefaultInConfig(name: string): number | undefined {
  const found = new RegExp(`\\b\\w+\\(\\s*env\\s*,\\s*['"]${name}['"]\\s*,\\s*([\\d_]+)\\s*[,)]`).exec(configCode())?.[1]
  return found === undefined ? undefined : Number(found.replaceAll('_', ''))
}

/**
 * The npm commands a script runs with `run('npm', [...])` (or `runAsync`), in order, as their
 * literal words: the values computed at run time (a temporary prefix, the tarball's path) are left out.
 */
export function npmCommandsOfScript(text: string): string[][] {
  return [...text.matchAll(/\brun(?:Async)?\(\s*'npm'\s*,\s*\[([^\]]*)\]/g)].map((match) => [...match[1]!.matchAll(/'([^']*)'/g)].map((word) => word[1]!))
}
