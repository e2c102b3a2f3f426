// An imported file is read a slice at a time (issue 36): redirects are answered while a large file
// is read, the header is checked before the rest is read, and the row cap stops the reading as soon
// as it is passed. Counted at the source: the slices the reader has taken when a redirect is answered.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { slicesOf } from '../../../src/modules/imports/csv-records.js'
import { checkFileRows, readFileRows } from '../../../src/modules/imports/file-sources.js'

/** A CSV of `rows` links (about 46 bytes a row). */
const linksCsv = (rows: number, header = 'url,alias,title') =>
  `${header}\n${Array.from({ length: rows }, (_, index) => `https://example.com/page/${index},row-${index},Row ${index}`).join('\n')}\n`

/** The slices of `content`, counting those taken so far. */
function countedSlices(content: string) {
  const counted = { taken: 0, total: [...slicesOf(content)].length }
  const slices = (function* () {
    for (const slice of slicesOf(content)) {
      counted.taken += 1
      yield slice
    }
  })()
  return { counted, slices }
}

describe('reading an imported file', () => {
  const { context, api } = useTestApp()

  /** A redirect through the app, and how far the reading was when it was answered. */
  function probeBeside(progress: () => number) {
    return context.app.inject({ method: 'GET', url: '/read-probe' }).then((response) => ({ status: response.statusCode, answeredAt: progress() }))
  }

  it('answers a redirect while the rows of a large file are read, before the last of them', async () => {
    expect((await api('POST', '/api/url/add', { url: 'https://example.com/probe', custom: 'read-probe' })).statusCode).toBe(201)
    const content = linksCsv(30_000)
    let read = 0
    let probe: ReturnType<typeof probeBeside> | undefined
    for await (const rows of readFileRows('csv', content)) {
      read += rows.length
      // Sent once the reading is under way: answered between two slices, not after the last.
      probe ??= probeBeside(() => read)
    }
    expect(read).toBe(30_000)
    const answer = await probe!
    expect(answer.status).toBe(302)
    expect(answer.answeredAt).toBeLessThan(read)
  })

  it('answers a redirect while an upload is checked, before its last slice is read', async () => {
    const { counted, slices } = countedSlices(linksCsv(30_000))
    let probe: ReturnType<typeof probeBeside> | undefined
    const checking = checkFileRows('csv', (function* () {
      for (const slice of slices) {
        yield slice
        if (counted.taken === 1) probe = probeBeside(() => counted.taken)
      }
    })(), { maxRows: 100_000 })
    expect(await checking).toBe(30_000)
    const answer = await probe!
    expect(answer.status).toBe(302)
    expect(answer.answeredAt).toBeLessThan(counted.total)
  })

  it('refuses a wrong header at once: the slices after the first are not read', async () => {
    const { counted, slices } = countedSlices(linksCsv(30_000, 'name,alias,title'))
    expect(counted.total).toBeGreaterThan(10)
    await expect(checkFileRows('csv', slices, { maxRows: 100_000 })).rejects.toThrow(/must have a destination column/)
    expect(counted.taken).toBe(1)
  })

  it('refuses a file over the row cap as soon as its reading passes the cap, naming the cap', async () => {
    const { counted, slices } = countedSlices(linksCsv(30_000))
    await expect(checkFileRows('csv', slices, { maxRows: 1_000 })).rejects.toThrow(/more than 1,000 rows.*IMPORT_MAX_ROWS/)
    expect(counted.taken).toBeLessThan(counted.total)
    expect(await checkFileRows('csv', slicesOf(linksCsv(1_000)), { maxRows: 1_000 })).toBe(1_000)
  })

  it('reads on from a place as a read from the start does, lines numbered in the file', async () => {
    // A BOM, CRLF, a quoted line break, an empty line and a multi-byte character before the place.
    const content = '\ufeffurl,alias,title\r\nhttps://example.com/a,a,"two\r\nlines"\r\n\r\nhttps://example.com/é,b,é\r\nhttps://example.com/c,c,C\r\nhttps://example.com/d,d,"broken "quote\r\nhttps://example.com/e,e,E'
    const whole = []
    for await (const rows of readFileRows('csv', content)) whole.push(...rows)
    // Lines as csv-parse counts them (a CRLF inside quotes counts twice), the same from a place as from the start.
    expect(whole.map((row) => row.key)).toEqual(['/a', '/b', '/c', expect.stringMatching(/^line /), expect.stringMatching(/^line /)])
    expect(whole[3]!.problem).toMatch(/could not be read/)
    const place = whole[1]!.after!
    expect(content.slice(0, place.byte - 4)).toMatch(/é,b,é\r\n$/)
    const rest = []
    for await (const rows of readFileRows('csv', content, { from: place })) rest.push(...rows)
    expect(rest).toEqual(whole.slice(2))
  })
})
