// @vitest-environment node
// The dashboard follows its own patterns everywhere (docs/architecture.md): server state is read
// in one <resource>-queries.ts per resource, every form submits through useCheckedSubmit, and no
// code guesses a field from a message's words (the envelope's `field` names it).
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

  it('submits every form through useCheckedSubmit', () => {
    const forms = files.flatMap((file) => [...file.text.matchAll(/<form\b[^>]*>/g)].map((match) => ({ name: file.name, tag: match[0], text: file.text })))
    expect(forms.length).toBeGreaterThan(10)
    const handRolled = forms.filter((form) => !/onSubmit=\{(\w+\.)?submit\}/.test(form.tag) || !/\buseCheckedSubmit(<[^>]*>)?\(/.test(form.text))
    expect(handRolled.map((form) => `${form.name}: ${form.tag}`)).toEqual([])
  })

  it('guesses no field from a message: only the envelope names it', () => {
    // A field is read from ApiError.field (client.ts); a pattern over message text is a guess.
    const guesses = files.filter((file) => /messageOf\([^)]*\)\)?\s*\.(match|test)|\.test\(\s*(message|messageOf)/.test(file.text) || /FIELD_HINTS|fieldOfMessage/.test(file.text))
    expect(guesses.map((file) => file.name)).toEqual([])
  })
})
