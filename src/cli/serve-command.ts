// `linkwell serve`: runs the server as `npm start` does, from wherever the package is installed
// (`npm install -g ./linkwell-*.tgz && linkwell serve`): the bundled server (dist/linkwell.mjs,
// ADR 011) with the node flags of package.json's start script (ADR 010), the dashboard from the
// package's dist/web unless DASHBOARD_DIR says otherwise. Settings come from the environment as for
// `npm start`; the database defaults to ./data/linkwell.db in the current folder.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CliFailure, UsageError, type StandaloneCommand } from './command.js'
import { runNodeChild } from './relaunch.js'

/** The folder of the package's package.json, above this file (dist/src/cli/ once built, src/cli/ in a checkout). */
function packageRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder)
    if (parent === folder) throw new CliFailure('the linkwell package\'s package.json was not found')
    folder = parent
  }
  return folder
}

/** The `--…` flags of package.json's start script, so that both ways of starting run the server alike. */
function startFlags(root: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: { start?: string } }
  return (manifest.scripts?.start ?? '').split(/\s+/).filter((word) => word.startsWith('--'))
}

/** Runs the server until it exits; answers its exit code (cli/relaunch.ts). Signals to this process are passed on. */
async function serve(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError('serve takes no options: the server reads its settings from the environment (PORT, DATABASE_URL, PUBLIC_URL…; see README)')
  const root = packageRoot()
  const entry = path.join(root, 'dist', 'linkwell.mjs')
  if (!fs.existsSync(entry)) throw new CliFailure(`${entry} is missing: build the server first (npm run build)`)
  const dashboard = path.join(root, 'dist', 'web')
  const env = { ...process.env }
  if (!env.DASHBOARD_DIR && fs.existsSync(path.join(dashboard, 'index.html'))) env.DASHBOARD_DIR = dashboard
  try {
    return await runNodeChild([...startFlags(root), entry], env)
  } catch (error) {
    throw new CliFailure(`the server could not be started: ${(error as Error).message}`)
  }
}

export const SERVE_COMMAND: StandaloneCommand = {
  name: 'serve',
  usage: '',
  summary: 'run the server (as `npm start` does; settings from the environment: PORT 3000, DATABASE_URL file:./data/linkwell.db, PUBLIC_URL…)',
  runStandalone: serve,
}
