// `npm run build`: bundles the compiled server (dist/src/main.js) and its dependencies into one
// file, dist/linkwell.mjs, which `npm start` runs. Loading one file instead of some two thousand
// ES and CommonJS modules is most of a cold start (docs/adr/011-bundled-server.md).
// Left outside the bundle: native addons (better-sqlite3, sharp, pg's optional pg-native) and
// packages that read files beside their own code (@fastify/swagger-ui's assets); Node resolves
// them from node_modules at run time, as it does `pg`, which the server requires only on PostgreSQL.
import { build } from 'esbuild'

// CommonJS dependencies inside an ES module still need require, __filename and __dirname.
const banner = [
  "import { createRequire as __linkwellCreateRequire } from 'node:module'",
  "import { fileURLToPath as __linkwellFileURLToPath } from 'node:url'",
  "import { dirname as __linkwellDirname } from 'node:path'",
  'const require = __linkwellCreateRequire(import.meta.url)',
  'const __filename = __linkwellFileURLToPath(import.meta.url)',
  'const __dirname = __linkwellDirname(__filename)',
].join('\n')

await build({
  entryPoints: ['dist/src/main.js'],
  outfile: 'dist/linkwell.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: 'linked',
  // Names stay readable in stack traces and profiles.
  minify: false,
  external: ['better-sqlite3', 'sharp', 'pg-native', '@fastify/swagger-ui'],
  banner: { js: banner },
  logLevel: 'warning',
})
