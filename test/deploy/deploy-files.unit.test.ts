// The deployment files (Dockerfile, compose.yaml, deploy/linkwell.service, the .env examples)
// checked against what they must agree with, without Docker (our CI has no daemon): the image packs
// and installs the tarball with the npm commands CI tests (scripts/check-package.mjs), every
// variable they set is one the server reads, the ports are the server's defaults, and the health
// check's script answers as Docker expects. test/deploy/health-check.test.ts asks its path of the app.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  envFileVariables,
  healthCheckCommand,
  healthCheckPath,
  instructionOptions,
  integerDefaultInConfig,
  mountFields,
  npmCommandsOfScript,
  readCompose,
  readDockerfile,
  readRepositoryFile,
  readUnitFile,
  repositoryPath,
  runCommands,
  serviceEnvironment,
  variablesReadByConfig,
  type ComposeService,
} from './deploy-files.js'

/** Variables only the PostgreSQL image and Compose read. */
const COMPOSE_ONLY = ['POSTGRES_PASSWORD', 'POSTGRES_USER', 'POSTGRES_DB']
/** Variables Node itself reads. */
const NODE_OWN = ['NODE_ENV', 'NODE_EXTRA_CA_CERTS']

const instructions = readDockerfile(readRepositoryFile('Dockerfile'))
const compose = readCompose()
const unit = readUnitFile(readRepositoryFile('deploy/linkwell.service'))
const manifest = JSON.parse(readRepositoryFile('package.json')) as { name: string; engines: { node: string }; bin: Record<string, string>; scripts: Record<string, string> }

const inStage = (stage: string, keyword: string) => instructions.filter((instruction) => instruction.stage === stage && instruction.keyword === keyword)
/** The stage that runs: the last one. */
const runtimeStage = instructions.filter((instruction) => instruction.keyword === 'FROM').at(-1)!.stage
const npmCommandsOf = (stage: string) => inStage(stage, 'RUN').flatMap((run) => runCommands(run.args)).filter((words) => words[0] === 'npm')
const installCommand = () => npmCommandsOf(runtimeStage).find((words) => words[1] === 'install')!
const packCommand = () => npmCommandsOf('build').find((words) => words[1] === 'pack')!
const valueAfter = (words: string[], flag: string) => words[words.indexOf(flag) + 1]
const unitValue = (section: string, key: string) => unit.get(section)?.get(key)?.at(-1)
/** The image's ENV, of every stage (`ENV A=1 B=2`, the form the Dockerfile uses). */
const dockerfileEnvironment = () =>
  Object.fromEntries(instructions.filter((instruction) => instruction.keyword === 'ENV').flatMap((env) => env.args.split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])))

/** A port the server listens on by default: src/config.ts's default. */
function portDefault(name: string): number {
  const fromConfig = integerDefaultInConfig(name)
  if (fromConfig !== undefined) return fromConfig
  if (variablesReadByConfig().has(name)) throw new Error(`src/config.ts reads ${name}, but not as reader(env, '${name}', <number>, …): read its default another way here`)
  throw new Error(`src/config.ts does not read ${name}`)
}
const serverPorts = () => ({ plain: portDefault('PORT'), http: portDefault('HTTP_PORT'), https: portDefault('HTTPS_PORT') })

/** The command-line name and command a start line runs: `linkwell serve` → the package's bin, and a command src/cli has. */
function expectLinkwellServe(words: string[]): void {
  expect(Object.keys(manifest.bin)).toContain(path.posix.basename(words[0]!))
  expect(words.slice(1)).toEqual(['serve'])
  // `serve` takes no options, and the command line has it (src/cli/serve-command.ts, listed in src/cli/commands.ts).
  expect(readRepositoryFile('src/cli/serve-command.ts')).toMatch(/\bname:\s*'serve'/)
  expect(readRepositoryFile('src/cli/commands.ts')).toMatch(/\bSERVE_COMMAND\b/)
}

describe('Dockerfile', () => {
  it('builds on the Node version package.json says it needs', () => {
    const minimum = Number(/^>=\s*(\d+)/.exec(manifest.engines.node)![1])
    const images = instructions.filter((instruction) => instruction.keyword === 'FROM').map((from) => from.args.split(' ')[0]!)
    const nodeImages = images.filter((image) => image.startsWith('node:'))
    expect(nodeImages.length).toBeGreaterThan(0)
    for (const image of nodeImages) expect(Number(/^node:(\d+)/.exec(image)?.[1])).toBe(minimum)
  })

  it('copies only what the repository has and .dockerignore lets through, and runs only scripts package.json has', () => {
    const ignored = readRepositoryFile('.dockerignore').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
    const isIgnored = (source: string) =>
      ignored.some((pattern) => {
        const anyDepth = pattern.startsWith('**/')
        const name = anyDepth ? pattern.slice(3) : pattern
        const parts = source.split('/')
        return anyDepth ? parts.includes(name) : source === name || source.startsWith(`${name}/`)
      })
    const copies = instructions.filter((instruction) => instruction.keyword === 'COPY')
    expect(copies.length).toBeGreaterThan(0)
    for (const copy of copies) {
      const { options, rest } = instructionOptions(copy.args)
      expect(options.has('from'), `${copy.args}: the tarball comes in through a mount`).toBe(false)
      const sources = rest.split(' ').slice(0, -1)
      for (const source of sources) {
        expect(fs.existsSync(repositoryPath(source)), `COPY ${source}: not in the repository`).toBe(true)
        expect(isIgnored(source), `COPY ${source}: left out by .dockerignore`).toBe(false)
      }
    }
    const scripts = instructions.filter((instruction) => instruction.keyword === 'RUN').flatMap((run) => runCommands(run.args)).filter((words) => words[0] === 'npm' && words[1] === 'run')
    expect(scripts.length).toBeGreaterThan(0)
    for (const words of scripts) expect(Object.keys(manifest.scripts)).toContain(words[2])
  })

  it('runs the npm commands CI runs to install, pack and install the package, in its order and with its flags', () => {
    // CI: .ci/run's `npm ci`, then scripts/check-package.mjs (build, lockfile as shrinkwrap, pack, install).
    const ciInstall = /^npm ci\b.*$/m.exec(readRepositoryFile('.ci/run'))![0].split(' ').slice(1)
    const ci = [ciInstall, ...npmCommandsOfScript(readRepositoryFile('scripts/check-package.mjs'))]
    // The image's, without the paths CI computes at run time (its prefix, pack folder and tarball).
    const image = [...npmCommandsOf('build'), ...npmCommandsOf(runtimeStage)].map((words) => words.slice(1).filter((word) => !word.startsWith('/')))
    expect(image).toEqual(ci)
    expect(ci.find((words) => words[0] === 'install')).toContain('--allow-scripts=better-sqlite3')
  })

  it('installs the tarball the build stage packed, from a mount, into npm\'s global prefix /usr/local', () => {
    const install = installCommand()
    expect(valueAfter(install, '--prefix')).toBe('/usr/local')
    const run = inStage(runtimeStage, 'RUN').find((each) => runCommands(each.args).some((words) => words[0] === 'npm' && words[1] === 'install'))!
    const mount = mountFields(instructionOptions(run.args).options.get('mount') ?? '')
    expect(mount).toMatchObject({ type: 'bind', from: 'build', source: valueAfter(packCommand(), '--pack-destination') })
    // `npm pack` names the tarball after the package: <name>-<version>.tgz.
    expect(install.at(-1)).toBe(`${mount.target}/${manifest.name}-*.tgz`)
  })

  it('runs as the user linkwell in the /data volume, where the database and the uploads live', () => {
    expect(inStage(runtimeStage, 'USER').map((user) => user.args)).toEqual(['linkwell'])
    const created = inStage(runtimeStage, 'RUN').flatMap((run) => runCommands(run.args)).find((words) => words[0] === 'useradd')
    expect(created?.at(-1)).toBe('linkwell')
    expect(inStage(runtimeStage, 'VOLUME').map((volume) => volume.args)).toEqual(['/data'])
    expect(inStage(runtimeStage, 'WORKDIR').map((workdir) => workdir.args)).toEqual(['/data'])
    expect(dockerfileEnvironment()).toMatchObject({ DATABASE_URL: 'file:/data/linkwell.db', UPLOAD_DIR: '/data/uploads' })
  })

  it('starts the package\'s `linkwell serve`', () => {
    const command = inStage(runtimeStage, 'CMD').map((cmd) => JSON.parse(cmd.args) as string[])
    expect(command).toHaveLength(1)
    expectLinkwellServe(command[0]!)
  })

  it('exposes the ports the server listens on by default: PORT, HTTP_PORT and HTTPS_PORT', () => {
    const exposed = inStage(runtimeStage, 'EXPOSE').flatMap((expose) => expose.args.split(' ')).map(Number)
    const { plain, http: httpPort, https } = serverPorts()
    expect(exposed.sort((a, b) => a - b)).toEqual([plain, httpPort, https].sort((a, b) => a - b))
  })

  describe('its health check', () => {
    let stub: http.Server
    let status = 200
    const asked: string[] = []
    const runHealthCheck = async (port: number) => {
      const [program, ...args] = healthCheckCommand(instructions)
      expect(program).toBe('node')
      try {
        await promisify(execFile)(process.execPath, args, { env: { ...process.env, PORT: String(port) } })
        return 0
      } catch (error) {
        return (error as { code?: number }).code
      }
    }

    beforeAll(async () => {
      stub = http.createServer((request, response) => {
        asked.push(request.url ?? '')
        response.writeHead(status).end()
      })
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    })
    afterAll(() => new Promise<void>((resolve) => stub.close(() => resolve())))

    it('asks /healthz on PORT, and falls back to PORT\'s default', () => {
      const script = healthCheckCommand(instructions).at(-1)!
      expect(healthCheckPath(healthCheckCommand(instructions))).toBe('/healthz')
      expect(Number(/process\.env\.PORT \|\| (\d+)/.exec(script)?.[1])).toBe(portDefault('PORT'))
    })

    it('exits 0 while /healthz answers 200, and 1 when it answers 503 or nothing listens', async () => {
      const { port } = stub.address() as AddressInfo
      status = 200
      expect(await runHealthCheck(port)).toBe(0)
      status = 503
      expect(await runHealthCheck(port)).toBe(1)
      expect(asked).toEqual(['/healthz', '/healthz'])
      const closed = await new Promise<number>((resolve) => {
        const probe = http.createServer().listen(0, '127.0.0.1', () => {
          const free = (probe.address() as AddressInfo).port
          probe.close(() => resolve(free))
        })
      })
      expect(await runHealthCheck(closed)).toBe(1)
    })
  })
})

describe('compose.yaml', () => {
  const services = compose.services
  const linkwell = services.linkwell as ComposeService

  it('builds linkwell from the Dockerfile at the root', () => {
    const build = typeof linkwell.build === 'string' ? { context: linkwell.build } : linkwell.build
    expect(build?.context).toBe('.')
    expect(build?.dockerfile ?? 'Dockerfile').toBe('Dockerfile')
  })

  it('gives every service a health check and restarts it unless it was stopped', () => {
    expect(Object.keys(services).sort()).toEqual(['linkwell', 'postgres', 'redis'])
    for (const [name, service] of Object.entries(services)) {
      expect(service.healthcheck?.test, `${name}'s health check`).toBeTruthy()
      expect(service.restart, `${name}'s restart policy`).toBe('unless-stopped')
    }
    expect(services.postgres!.healthcheck!.test).toContain('pg_isready')
    expect(services.redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping'])
  })

  it('checks linkwell\'s health with the image\'s own command', () => {
    expect(linkwell.healthcheck?.test).toEqual(['CMD', ...healthCheckCommand(instructions)])
  })

  it('starts linkwell once PostgreSQL and Redis are healthy, and points it at them', () => {
    expect(linkwell.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } })
    // Compose fills in ${NAME} (and ${NAME:?message}) from .env: here each gets a value of its own.
    const filled = (service: ComposeService) =>
      Object.fromEntries(Object.entries(serviceEnvironment(service)).map(([name, value]) => [name, value.replace(/\$\{([A-Z][A-Z0-9_]*)[^}]*\}/g, (_, variable: string) => `value-of-${variable}`)]))
    const environment = filled(linkwell)
    const postgres = filled(services.postgres!)
    const database = new URL(environment.DATABASE_URL!)
    expect(database.protocol).toBe('postgres:')
    expect([database.hostname, database.username, database.pathname]).toEqual(['postgres', postgres.POSTGRES_USER, `/${postgres.POSTGRES_DB}`])
    // Both take the password from .env: Compose puts it in the URL as it puts it in PostgreSQL.
    expect(decodeURIComponent(database.password)).toBe(postgres.POSTGRES_PASSWORD)
    expect(new URL(environment.REDIS_URL!)).toMatchObject({ protocol: 'redis:', hostname: 'redis' })
  })

  it('publishes the HTTP and HTTPS ports the server listens on, which the image exposes, on the same ports', () => {
    const { http: httpPort, https } = serverPorts()
    const published = (linkwell.ports ?? []).map((port) => (typeof port === 'string' ? port : `${port.published}:${port.target}`))
    expect(published).toEqual([`${httpPort}:${httpPort}`, `${https}:${https}`])
    const exposed = inStage(runtimeStage, 'EXPOSE').flatMap((expose) => expose.args.split(' ')).map(Number)
    expect(exposed).toEqual(expect.arrayContaining([httpPort, https]))
  })

  it('keeps linkwell\'s /data, PostgreSQL\'s and Redis\' data in named volumes', () => {
    const mounts = (service: ComposeService) => (service.volumes ?? []).map((volume) => (typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`))
    expect(mounts(linkwell)).toEqual(['linkwell-data:/data'])
    expect(mounts(services.postgres!)).toEqual(['postgres-data:/var/lib/postgresql/data'])
    expect(mounts(services.redis!)).toEqual(['redis-data:/data'])
    expect(Object.keys(compose.volumes ?? {}).sort()).toEqual(['linkwell-data', 'postgres-data', 'redis-data'])
  })

  it('reads .env, which git ignores, and takes every variable it fills in from what .env.example lists', () => {
    expect(linkwell.env_file).toBe('.env')
    expect(readRepositoryFile('.gitignore').split('\n').map((line) => line.trim())).toContain('.env')
    const code = readRepositoryFile('compose.yaml').replace(/^\s*#.*$/gm, '')
    const interpolated = [...code.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!)
    expect(interpolated.length).toBeGreaterThan(0)
    expect(envFileVariables(readRepositoryFile('.env.example'))).toEqual(expect.arrayContaining(interpolated))
  })
})

describe('the variables the deployment files set', () => {
  it('are all ones the server reads (src/config.ts), but PostgreSQL\'s and Node\'s own', () => {
    const readByServer = variablesReadByConfig()
    const set = {
      Dockerfile: Object.keys(dockerfileEnvironment()),
      'compose.yaml': Object.values(compose.services).flatMap((service) => Object.keys(serviceEnvironment(service))),
      '.env.example': envFileVariables(readRepositoryFile('.env.example')),
      'deploy/linkwell.env.example': envFileVariables(readRepositoryFile('deploy/linkwell.env.example')),
    }
    for (const [file, names] of Object.entries(set)) {
      expect(names.length, file).toBeGreaterThan(0)
      const unknown = names.filter((name) => !readByServer.has(name) && !COMPOSE_ONLY.includes(name) && !NODE_OWN.includes(name))
      expect(unknown, `${file} sets variables the server does not read`).toEqual([])
    }
  })

  it('deploy/linkwell.env.example lists what .env.example does, but the ones only Compose uses', () => {
    const forCompose = envFileVariables(readRepositoryFile('.env.example')).filter((name) => !COMPOSE_ONLY.includes(name))
    expect(envFileVariables(readRepositoryFile('deploy/linkwell.env.example'))).toEqual(forCompose)
  })
})

describe('deploy/linkwell.service', () => {
  it('starts `linkwell serve` from the global prefix the image installs into', () => {
    const words = unitValue('Service', 'ExecStart')!.split(' ')
    expectLinkwellServe(words)
    expect(path.posix.dirname(words[0]!)).toBe(`${valueAfter(installCommand(), '--prefix')}/bin`)
  })

  it('runs as linkwell in /var/lib/linkwell, the one folder it may write, with deploy/linkwell.env.example\'s settings', () => {
    expect(unitValue('Service', 'User')).toBe('linkwell')
    expect(unitValue('Service', 'WorkingDirectory')).toBe('/var/lib/linkwell')
    expect(unitValue('Service', 'ReadWritePaths')).toBe(unitValue('Service', 'WorkingDirectory'))
    expect(unitValue('Service', 'EnvironmentFile')).toBe('/etc/linkwell/linkwell.env')
    expect(fs.existsSync(repositoryPath(`deploy/${path.posix.basename(unitValue('Service', 'EnvironmentFile')!)}.example`))).toBe(true)
    for (const [key, value] of Object.entries({ NoNewPrivileges: 'yes', ProtectSystem: 'strict', PrivateTmp: 'yes', ProtectHome: 'yes' })) {
      expect(unitValue('Service', key), key).toBe(value)
    }
  })

  it('may bind ports below 1024 and nothing more, stops with SIGTERM and restarts after a failure', () => {
    expect(unitValue('Service', 'AmbientCapabilities')).toBe('CAP_NET_BIND_SERVICE')
    expect(unitValue('Service', 'CapabilityBoundingSet')).toBe('CAP_NET_BIND_SERVICE')
    expect(unitValue('Service', 'KillSignal')).toBe('SIGTERM')
    expect(unitValue('Service', 'Restart')).toBe('on-failure')
    expect(unitValue('Install', 'WantedBy')).toBe('multi-user.target')
  })
})
