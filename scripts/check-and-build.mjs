// `npm test`'s steps before the suite, as `npm run typecheck && npm run check:layers && npm run build`
// would run them, in less time: the server's type check (tsconfig.json: the server, the tests, the
// benches) emits the server's JavaScript itself (dist/src, the files `npm run build` compiles with
// tsconfig.build.json), so the server is compiled once instead of twice, and it runs beside the
// dashboard's type check, the layer check and the dashboard's build (two cores: 110 s one after
// another; see docs/testing.md). Then the server's bundle, which needs dist/src. The first failure
// ends the run with its exit code.
import { spawn } from 'node:child_process'

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' })
    child.on('error', reject)
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(Object.assign(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`), { code: code || 1 }))))
  })
}

async function inTurn(...steps) {
  for (const [command, ...args] of steps) await run(command, args)
}

try {
  await Promise.all([
    inTurn(['npx', 'tsc', '-p', 'tsconfig.json']),
    inTurn(['npx', 'tsc', '-p', 'web/tsconfig.json'], ['npm', 'run', 'check:layers'], ['npm', 'run', 'build:web']),
  ])
  await run('node', ['scripts/bundle-server.mjs'])
} catch (error) {
  console.error(error.message)
  process.exit(error.code ?? 1)
}
