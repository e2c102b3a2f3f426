// The map's "one place" rows (docs/architecture.md) that an import cannot show, checked over the
// source text: each idea has its one place, and a second copy fails here. (Imports are checked by
// `npm run check:layers`: .dependency-cruiser.cjs.)
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = path.resolve('src')

function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : []
  })
}

/** A file's code without its comments (near enough: block comments, and line comments starting a line or after code). */
function codeOf(file: string): string {
  return fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')
}

/** The files (relative to src/) whose code matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles().filter((file) => pattern.test(codeOf(file))).map((file) => path.relative(SRC, file))
}

describe('one place for each idea', () => {
  it('the http(s) scheme rule lives in core/urls.ts only', () => {
    expect(filesMatching(/protocol\s*[!=]==\s*['"]http:['"]/)).toEqual(['core/urls.ts'])
  })

  it('audit rows are written by the change journal only', () => {
    expect(filesMatching(/insertInto\(\s*['"]audit_log['"]/)).toEqual(['modules/changes/change-journal.ts'])
  })

  it('nothing outside db/ asks which database it is on', () => {
    const asking = filesMatching(/\.dialect\b|\.embedded\b|dialectOf\(|\.pool\b|DialectName/).filter((file) => !file.startsWith('db/'))
    expect(asking).toEqual([])
  })

  it('the splash counter\'s range and default are defined once', () => {
    expect(filesMatching(/DEFAULT_SPLASH_COUNTER\s*=|MAX_SPLASH_COUNTER\s*=/)).toEqual(['modules/splash-pages/splash-page.schemas.ts'])
    // No other file spells the range out.
    expect(filesMatching(/maximum:\s*60\b/)).toEqual([])
  })

  it('the error envelope is sent by the error handler only', () => {
    expect(filesMatching(/error:\s*1\s*,\s*message/)).toEqual(['http/error-handler.ts'])
  })

  it('a validation sentence ("The field "x" …") is built in core only', () => {
    expect(filesMatching(/The field "/)).toEqual(['core/errors.ts'])
  })

  it('time text is written by core/time.ts only', () => {
    expect(filesMatching(/\.toISOString\(\)/)).toEqual(['core/time.ts'])
  })

  it('visitor redirects get their no-cache answer from public/redirect-reply.ts only', () => {
    // Its Location and Cache-Control are built there (redirectTo, redirectOf); no other file of
    // public/ sends a redirect or names the header.
    expect(filesMatching(/\.redirect\(|['"]?location['"]?\s*:/).filter((file) => file.startsWith('public/'))).toEqual(['public/redirect-reply.ts'])
  })

  it('a visit is counted where it is answered, public/link-visit.ts, whichever transport answers it', () => {
    expect(filesMatching(/visits\.count\(/)).toEqual(['public/link-visit.ts'])
  })
})
