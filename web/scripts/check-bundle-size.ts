// Run by `npm run build`: the JavaScript a first visit downloads (index.html's module script and
// the chunks it preloads), gzipped, must stay within the budget. Prints every file and the total.
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_BYTES = 250 * 1024
const outDir = path.resolve('dist/web')
const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8')

const initial = new Set<string>()
for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) initial.add(match[1]!)
for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) initial.add(match[1]!)
if (initial.size === 0) throw new Error('dist/web/index.html loads no script: was the dashboard built?')

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
let total = 0
for (const url of initial) {
  const file = path.join(outDir, url.replace(/^\/app\//, ''))
  const size = gzipSync(fs.readFileSync(file), { level: 9 }).length
  total += size
  process.stdout.write(`  ${path.relative(process.cwd(), file)}  ${kilobytes(size)} gzipped\n`)
}
process.stdout.write(`initial JavaScript: ${kilobytes(total)} gzipped (budget ${kilobytes(BUDGET_BYTES)})\n`)
if (total > BUDGET_BYTES) {
  process.stderr.write(`The dashboard's initial JavaScript is over budget by ${kilobytes(total - BUDGET_BYTES)}: split a route or drop a dependency.\n`)
  process.exit(1)
}
