// `npm run build`: bundles the compiled server (dist/src/main.js) and its dependencies into one
// file, dist/linkwell.mjs, which `npm start` runs. Loading one file instead of some two thousand
// ES and CommonJS modules is most of a cold start (docs/adr/011-bundled-server.md).
// Left outside the bundle: native addons (better-sqlite3, sharp, pg's optional pg-native) and
// packages that read files beside their own code (@fastify/swagger-ui's assets); Node resolves
// them from node_modules at run time, as it does `pg`, which the server requires only on PostgreSQL,
// the NATS client, which it imports only with EVENTS_URL, DuckDB, only with ANALYTICS_STORE, and
// Stripe's package, only when a workspace's first Stripe event arrives (no memory for them otherwise).
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'

// CommonJS dependencies inside an ES module still need require, __filename and __dirname.
const banner = [
  "import { createRequire as __linkwellCreateRequire } from 'node:module'",
  "import { fileURLToPath as __linkwellFileURLToPath } from 'node:url'",
  "import { dirname as __linkwellDirname } from 'node:path'",
  'const require = __linkwellCreateRequire(import.meta.url)',
  'const __filename = __linkwellFileURLToPath(import.meta.url)',
  'const __dirname = __linkwellDirname(__filename)',
].join('\n')

const readable = process.env.LINKWELL_READABLE_BUNDLE === '1'

await build({
  entryPoints: ['dist/src/main.js'],
  outfile: 'dist/linkwell.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  // Whitespace and syntax only: a smaller source to parse and to keep in memory (V8 holds every
  // script's text), while names stay readable in stack traces and profiles.
  // LINKWELL_READABLE_BUNDLE=1 keeps line breaks and comments, for profiles that name lines.
  minifyWhitespace: !readable,
  minifySyntax: true,
  minifyIdentifiers: false,
  external: ['better-sqlite3', 'sharp', 'pg-native', '@fastify/swagger-ui', '@nats-io/transport-node', '@nats-io/jetstream', '@duckdb/node-api', 'stripe'],
  banner: { js: banner },
  logLevel: 'warning',
})

// V8 keeps the bundle's text for as long as the process runs: one byte per character while every
// character is Latin-1, two bytes for all of it once a single one is not. esbuild escapes string
// literals but not template literals (html`…`): write such characters as entities or CSS escapes.
const text = readFileSync('dist/linkwell.mjs', 'utf8')
const wide = text.search(/[^\u0000-\u00ff]/u)
if (wide !== -1 && !readable) {
  console.error(`dist/linkwell.mjs: a character beyond Latin-1 near "${text.slice(Math.max(0, wide - 40), wide + 10)}" doubles the memory its text takes; write it as an HTML entity or escape.`)
  process.exit(1)
}
