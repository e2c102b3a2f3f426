// The suite's own layout rules (docs/testing.md), checked over the test files' imports: a file runs
// on both databases exactly when it reaches the database under test, and once otherwise.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const TEST = path.resolve('test')
/** What picks the database under test (TEST_DIALECT): reaching it makes a file a database test. */
const DATABASE_UNDER_TEST = path.join(TEST, 'helpers/test-database.ts')

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(full) : /\.(ts|mjs)$/.test(entry.name) ? [full] : []
  })
}

/** The files under test/ that `file` imports (statically or dynamically), resolved. */
function localImports(file: string): string[] {
  const code = fs.readFileSync(file, 'utf8')
  const specifiers = [...code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!)
  return specifiers
    .map((specifier) => path.resolve(path.dirname(file), specifier))
    .map((target) => (target.endsWith('.js') && fs.existsSync(target.replace(/\.js$/, '.ts')) ? target.replace(/\.js$/, '.ts') : target))
    .filter((target) => target.startsWith(TEST + path.sep) && fs.existsSync(target))
}

/** Whether `file` reaches the database under test through the test files it imports. */
function reachesDatabase(file: string, seen = new Set<string>()): boolean {
  if (file === DATABASE_UNDER_TEST) return true
  if (seen.has(file)) return false
  seen.add(file)
  return localImports(file).some((target) => reachesDatabase(target, seen))
}

const testFiles = filesUnder(TEST).filter((file) => file.endsWith('.test.ts'))
const relative = (file: string) => path.relative(TEST, file)
/** The browser walks (each walks both databases itself) and the several-instance tests (PostgreSQL only) have rules of their own. */
const ownRules = (file: string) => /^(e2e|scale)\//.test(relative(file))

describe('which project runs a test file (vitest.config.ts)', () => {
  it('finds the files it judges', () => {
    expect(testFiles.length).toBeGreaterThan(100)
    expect(reachesDatabase(path.join(TEST, 'helpers/test-app.ts'))).toBe(true)
    expect(reachesDatabase(path.join(TEST, 'helpers/eventually.ts'))).toBe(false)
  })

  it('a file that reaches no database is named *.unit.test.ts, so it runs once and not once per database', () => {
    const twiceForNothing = testFiles.filter((file) => !ownRules(file) && !file.endsWith('.unit.test.ts') && !reachesDatabase(file))
    expect(twiceForNothing.map(relative)).toEqual([])
  })

  it('a *.unit.test.ts file reaches no database under test (it would run on SQLite only)', () => {
    const onOneDatabase = testFiles.filter((file) => file.endsWith('.unit.test.ts') && reachesDatabase(file))
    expect(onOneDatabase.map(relative)).toEqual([])
  })
})
