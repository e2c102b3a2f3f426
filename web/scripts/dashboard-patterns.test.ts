// @vitest-environment node
// The dashboard follows its own patterns everywhere (docs/architecture.md): server state is read
// and written in one <resource>-queries.ts per resource (the writes declare the reads they change,
// api/write-queries.ts), under keys from the one factory (api/query-keys.ts); every form submits
// through useCheckedSubmit and says its error through FormError, and no code guesses a field from
// a message's words (the envelope's `field` names it).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SOURCE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src')

function sourceFiles(folder = SOURCE): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : []
  })
}

const files = sourceFiles().map((file) => ({ name: path.relative(SOURCE, file), text: fs.readFileSync(file, 'utf8') }))

describe('the dashboard\'s patterns', () => {
  it('reads server state only in *-queries.ts files', () => {
    const readers = files.filter((file) => /\buse(Query|Queries|InfiniteQuery|SuspenseQuery)\(/.test(file.text)).map((file) => file.name)
    expect(readers.length).toBeGreaterThan(5)
    expect(readers.filter((name) => !name.endsWith('-queries.ts'))).toEqual([])
  })

  it('writes only in *-queries.ts files, and pages never touch the cache', () => {
    const writers = files.filter((file) => /\buse(Mutation|Write|CountedWrite)\(/.test(file.text)).map((file) => file.name)
    expect(writers.length).toBeGreaterThan(10)
    expect(files.filter((file) => /\buseMutation\(/.test(file.text)).map((file) => file.name).filter((name) => !name.endsWith('-queries.ts'))).toEqual([])
    // A request, a cache write or an invalidation in a page is a write pattern of its own.
    const elsewhere = files.filter((file) => !file.name.endsWith('-queries.ts') && file.name !== path.join('api', 'client.ts'))
    const found = elsewhere.flatMap((file) => [...file.text.matchAll(/\bapi\.(GET|POST|PUT|PATCH|DELETE)\(|\buseQueryClient\(|\b(invalidateQueries|setQueryData|removeQueries|refetchQueries)\(|\buse(Write|CountedWrite|Refresh)\(/g)].map((match) => `${file.name}: ${match[0]}`))
    expect(found).toEqual([])
  })

  it('takes every query key from the one factory (api/query-keys.ts)', () => {
    const keys = files.filter((file) => file.name !== path.join('api', 'query-keys.ts')).flatMap((file) => [...file.text.matchAll(/\bqueryKey\s*[:=]\s*([^\n,}]+)/g)].map((match) => ({ name: file.name, value: match[1]!.trim() })))
    expect(keys.length).toBeGreaterThan(20)
    expect(keys.filter((key) => !key.value.includes('queryKeys.')).map((key) => `${key.name}: ${key.value}`)).toEqual([])
  })

  it('submits every form through useCheckedSubmit', () => {
    const forms = files.flatMap((file) => [...file.text.matchAll(/<form\b[^>]*>/g)].map((match) => ({ name: file.name, tag: match[0], text: file.text })))
    expect(forms.length).toBeGreaterThan(10)
    const handRolled = forms.filter((form) => !/onSubmit=\{(\w+\.)?submit\}/.test(form.tag) || !/\buseCheckedSubmit(<[^>]*>)?\(/.test(form.text))
    expect(handRolled.map((form) => `${form.name}: ${form.tag}`)).toEqual([])
  })

  it('says a form\'s error through the one FormError component', () => {
    expect(files.filter((file) => /<FormError\b/.test(file.text)).length).toBeGreaterThan(20)
    const handWritten = files.filter((file) => file.name !== path.join('components', 'FormError.tsx') && /\bform-error\b/.test(file.text))
    expect(handWritten.map((file) => file.name)).toEqual([])
  })

  it('reads the page of a list from the address in one place (components/list-page.tsx pageOf)', () => {
    const readers = files.filter((file) => /\.get\(\s*['"]page['"]\s*\)/.test(file.text)).map((file) => file.name)
    expect(readers).toEqual([path.join('components', 'list-page.tsx')])
  })

  it('gives every form a submit button and every button a type, so Enter in a field does what the form\'s button does', () => {
    const forms = files.flatMap((file) => [...file.text.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((match) => ({ name: file.name, body: match[0] })))
    expect(forms.length).toBeGreaterThan(10)
    expect(forms.filter((form) => !/type="submit"/.test(form.body)).map((form) => form.name)).toEqual([])
    // A button without a type submits its form: it would take the Enter of every field above it.
    const untyped = files.flatMap((file) => [...file.text.matchAll(/<button\b((?:=>|[^>])*)>/g)].filter((match) => !/\btype=/.test(match[1]!)).map(() => file.name))
    expect(untyped).toEqual([])
  })

  it('shares the server\'s rules only through src/core files that import nothing but each other', () => {
    // The link limits, the URL, text and UTM rules: one copy for both (src/core/link-limits.ts), and no server code in the bundle.
    const CORE = path.resolve(SOURCE, '../../src/core')
    const shared = files.flatMap((file) => [...file.text.matchAll(/from '((?:\.\.\/)+src\/[^']+)'/g)].map((match) => path.resolve(SOURCE, path.dirname(file.name), match[1]!)))
    expect(shared.length).toBeGreaterThan(5)
    const problems: string[] = []
    const seen = new Set<string>()
    const queue = shared.map((target) => `${target.replace(/\.js$/, '')}.ts`)
    while (queue.length > 0) {
      const file = queue.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      if (path.dirname(file) !== CORE) problems.push(`${path.relative(CORE, file)} is not in src/core`)
      else for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^'\n]*from '([^']+)'/gm)) {
        if (specifier!.startsWith('./')) queue.push(path.join(CORE, specifier!.replace(/\.js$/, '.ts')))
        else problems.push(`src/core/${path.basename(file)} imports ${specifier}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('guesses no field from a message: only the envelope names it', () => {
    // A field is read from ApiError.field (client.ts); a pattern over message text is a guess.
    const guesses = files.filter((file) => /messageOf\([^)]*\)\)?\s*\.(match|test)|\.test\(\s*(message|messageOf)/.test(file.text) || /FIELD_HINTS|fieldOfMessage/.test(file.text))
    expect(guesses.map((file) => file.name)).toEqual([])
  })
})
