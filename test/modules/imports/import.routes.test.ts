import { describe, expect, it } from 'vitest'
import { useTestApp, withJsonData, type TestAccount } from '../../helpers/test-app.js'
import { createImportRepository } from '../../../src/modules/imports/import.repository.js'
import { createImportService } from '../../../src/modules/imports/import.service.js'
import { eventually } from '../../helpers/eventually.js'

const BOUNDARY = '----linkwell-import-test'

/** A multipart/form-data body of `fields` and one file. */
function formBody(fields: Record<string, string>, file: { name: string; content: string } | null): string {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  if (file) parts.push(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: text/csv\r\n\r\n${file.content}\r\n`)
  return `${parts.join('')}--${BOUNDARY}--\r\n`
}

const CSV = [
  'url,alias,title,created,campaign',
  'https://example.com/a,imp-a,First,2024-03-01 10:00:00,Spring',
  'https://example.com/b,imp-b,"Second, with a comma",2024-03-02T08:30:00Z,',
  'javascript:alert(1),imp-bad,Evil,,',
  'https://example.com/c,imp-c,Third,yesterday,',
  'https://example.com/d,,No alias,,',
  'https://example.com/e,imp-e,"Broken "quote,,',
  'https://example.com/f,imp-f,Last,2024-03-03,',
  'https://example.com/g,imp-g,After the broken one,,',
].join('\n')

describe('imports of files', () => {
  const { context, owner, api, otherApi } = useTestApp({ env: { IMPORT_MAX_BYTES: '200000', IMPORT_MAX_ROWS: '20' } })

  async function upload(account: TestAccount, fields: Record<string, string>, file: { name: string; content: string } | null, headers: Record<string, string> = {}) {
    return withJsonData(await context.app.inject({
      method: 'POST',
      url: '/api/import',
      headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
      payload: formBody(fields, file),
    }))
  }

  /** The import once its job has ended (the served app's worker runs it). */
  async function finished(id: number) {
    const read = await eventually(() => api('GET', `/api/import/${id}`), (answer) => answer.statusCode !== 200 || ['done', 'failed'].includes(answer.data.import.state))
    expect(read.statusCode).toBe(200)
    return read.data.import
  }

  it('imports a CSV in the background and reports each bad line with its number and reason', async () => {
    await api('POST', '/api/campaign/add', { name: 'Spring' })
    const started = await upload(owner, { source: 'csv', onconflict: 'skip' }, { name: 'links.csv', content: CSV })
    expect(started.statusCode).toBe(202)
    expect(started.data).toEqual({ error: 0, id: expect.any(Number), state: 'queued' })
    const report = await finished(started.data.id)
    expect(report).toMatchObject({ state: 'done', source: 'csv', name: 'links.csv', created: 3, error: null, existing: 0 })
    const byLine = new Map(report.problems.map((problem: { line: number }) => [problem.line, problem]))
    expect(byLine.get(4)).toMatchObject({ action: 'skipped', reason: expect.stringContaining('"url"') })
    expect(byLine.get(5)).toMatchObject({ action: 'skipped', reason: expect.stringContaining('"yesterday" is no date') })
    expect(byLine.get(7)).toMatchObject({ action: 'skipped', reason: expect.stringMatching(/could not be read.*quote/i) })
    // The broken quote runs on into the lines after it, which csv-parse cannot close either: where it stopped is named.
    expect(report.problems.at(-1)).toMatchObject({ line: 9, action: 'skipped', reason: expect.stringMatching(/quote not closed/i) })
    expect(report.problems.map((problem: { line: number }) => problem.line)).toEqual([4, 5, 7, 9])

    const links = await context.database.db.selectFrom('links').innerJoin('campaigns', 'campaigns.id', 'links.campaign_id').select(['links.alias', 'links.created_at', 'campaigns.name'])
      .where('links.account_id', '=', owner.id).where('links.alias', '=', 'imp-a').execute()
    expect(links).toEqual([{ alias: 'imp-a', created_at: '2024-03-01 10:00:00', name: 'Spring' }])
    const second = await context.database.db.selectFrom('links').select(['title', 'created_at']).where('account_id', '=', owner.id).where('alias', '=', 'imp-b').executeTakeFirstOrThrow()
    expect(second).toEqual({ title: 'Second, with a comma', created_at: '2024-03-02 08:30:00' })
    // The imported link redirects.
    const visit = await context.app.inject({ method: 'GET', url: '/imp-a' })
    expect(visit.statusCode).toBe(302)
    expect(visit.headers.location).toBe('https://example.com/a')

    // The same file again imports nothing twice: each link with an alias is found as existing.
    const again = await finished((await upload(owner, {}, { name: 'links.csv', content: CSV })).data.id)
    expect(again).toMatchObject({ state: 'done', existing: 3, created: 0, skipped: report.skipped })
    const list = await api('GET', '/api/imports')
    expect(list.data.data.imports.map((entry: { id: number }) => entry.id)).toEqual([again.id, report.id])
  })

  it('follows the conflict choice for an alias another account holds: skip, rename, fail', async () => {
    await otherApi('POST', '/api/url/add', { url: 'https://example.com/theirs', custom: 'taken-one' })
    const content = 'url,alias\nhttps://example.com/1,free-one\nhttps://example.com/2,taken-one\n'
    const asOwner = (await upload(owner, { onconflict: 'skip' }, { name: 'a.csv', content })).data.id
    expect(await finished(asOwner)).toMatchObject({ created: 1, skipped: 1, problems: [{ line: 3, action: 'skipped', alias: 'taken-one', reason: expect.stringContaining('taken') }] })

    const renamed = await finished((await upload(owner, { onconflict: 'rename' }, { name: 'a.csv', content })).data.id)
    expect(renamed).toMatchObject({ created: 1, renamed: 1, existing: 1, problems: [{ line: 2, action: 'existing', alias: 'free-one' }, { line: 3, action: 'renamed', alias: 'taken-one-2', oldalias: 'taken-one', newalias: 'taken-one-2' }] })
    expect((await context.app.inject({ method: 'GET', url: '/taken-one-2' })).headers.location).toBe('https://example.com/2')

    const failing = 'url,alias\nhttps://example.com/x,fail-first\nhttps://example.com/y,taken-one\n'
    const failed = await finished((await upload(owner, { onconflict: 'fail' }, { name: 'b.csv', content: failing })).data.id)
    expect(failed).toMatchObject({ state: 'failed', created: 0, error: expect.stringMatching(/^Line 3: .*taken/) })
    expect(await context.database.db.selectFrom('links').select('id').where('alias', '=', 'fail-first').execute()).toEqual([])
  })

  it('refuses what cannot be an import in the envelope: a 2 GB upload, a file over the limit, no file, no header, a bad choice', async () => {
    const huge = await upload(owner, {}, { name: 'huge.csv', content: 'url\n' }, { 'content-length': String(2 * 1024 ** 3) })
    expect(huge.statusCode).toBe(413)
    expect(huge.data).toMatchObject({ error: 1, code: 'body_too_large' })
    const over = await upload(owner, {}, { name: 'big.csv', content: `url\n${'https://example.com/long\n'.repeat(9000)}` })
    expect(over.statusCode).toBe(413)
    expect(over.data).toMatchObject({ error: 1, code: 'body_too_large' })
    const none = await upload(owner, { source: 'csv' }, null)
    expect(none.statusCode).toBe(400)
    expect(none.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'file' })
    const noUrl = await upload(owner, {}, { name: 'x.csv', content: 'name,alias\nx,y\n' })
    expect(noUrl.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'file' })
    const badChoice = await upload(owner, { onconflict: 'merge' }, { name: 'x.csv', content: CSV })
    expect(badChoice.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'onconflict' })
    const json = await api('POST', '/api/import', { url: 'https://example.com' })
    expect(json.statusCode).toBe(415)
    expect(json.data).toMatchObject({ error: 1, code: 'unsupported_media_type' })
    // Another account's import is not found.
    const mine = (await upload(owner, {}, { name: 'x.csv', content: 'url\nhttps://example.com/mine\n' })).data.id
    expect((await otherApi('GET', `/api/import/${mine}`)).statusCode).toBe(404)
    await finished(mine)
  })

  it('refuses a file of more rows than IMPORT_MAX_ROWS in the envelope, naming the cap; a wrong header first', async () => {
    const rowsOf = (count: number) => Array.from({ length: count }, (_, index) => `https://example.com/cap-${index},cap-${index}`)
    const over = await upload(owner, {}, { name: 'long.csv', content: ['url,alias', ...rowsOf(21)].join('\n') })
    expect(over.statusCode).toBe(400)
    expect(over.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'file', message: expect.stringMatching(/more than 20 rows.*IMPORT_MAX_ROWS/) })
    // The header is checked before the rows are counted.
    const wrongHeader = await upload(owner, {}, { name: 'long.csv', content: ['name,alias', ...rowsOf(21)].join('\n') })
    expect(wrongHeader.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'file', message: expect.stringContaining('destination column') })
    const atTheCap = await upload(owner, {}, { name: 'cap.csv', content: ['url,alias', ...rowsOf(20)].join('\n') })
    expect(atTheCap.statusCode).toBe(202)
    expect(await finished(atTheCap.data.id)).toMatchObject({ state: 'done', created: 20, total: 20 })
  })

  it('reads a Bitly export: the back-half as alias, its dates and titles', async () => {
    const bitly = 'Bitlink,Long URL,Title,Date Created,Tags,Total Clicks\nbit.ly/3xYzAbc,https://example.com/bitly,From Bitly,2023-05-06T07:08:09+0000,"news,promo",42\nhttps://bit.ly/promo-2024,https://example.com/promo,,2023-06-01T00:00:00+0000,,7\n'
    const report = await finished((await upload(owner, { source: 'bitly' }, { name: 'bitly.csv', content: bitly })).data.id)
    expect(report).toMatchObject({ state: 'done', created: 2, skipped: 0 })
    const rows = await context.database.db.selectFrom('links').select(['alias', 'url', 'title', 'created_at']).where('account_id', '=', owner.id).where('alias', 'in', ['3xYzAbc', 'promo-2024']).orderBy('alias').execute()
    expect(rows).toEqual([
      { alias: '3xYzAbc', url: 'https://example.com/bitly', title: 'From Bitly', created_at: '2023-05-06 07:08:09' },
      { alias: 'promo-2024', url: 'https://example.com/promo', title: null, created_at: '2023-06-01 00:00:00' },
    ])
  })

  it('resumes a job stopped between chunks at its place in the file, neither parsing nor writing again the rows before it', async () => {
    const db = context.database.db
    const repository = createImportRepository(db)
    const content = ['url,alias', ...Array.from({ length: 9 }, (_, index) => `https://example.com/r${index},resume-${index}`)].join('\n')
    // A job the served worker leaves alone (the command line's), run here with chunks of 2.
    const id = await repository.insertJob({ accountId: owner.id, personId: null, keyId: null, via: 'cli', source: 'csv', sourceName: 'r.csv', runner: 'cli', options: '{"onconflict":"fail"}' }, content)
    let chunks = 0
    const crashing = createImportService({
      jobs: repository,
      linkBatch: context.services.linkBatch,
      chunkSize: 2,
      afterChunk: async () => {
        chunks += 1
        // The third chunk's transaction fails, as a stopped process would leave it: rolled back.
        if (chunks === 3) throw new Error('stopped')
      },
    })
    await expect(crashing.runJob(id)).rejects.toThrow('stopped')
    // runJob marks a job failed on an unexpected error; a process that died would have left it running.
    await db.updateTable('import_jobs').set({ state: 'running', error: null, finished_at: null }).where('id', '=', id).execute()
    const stoppedAt = await repository.findJobById(id)
    // The place after the fourth row: its byte offset (the header's 10 bytes, 32 a row) and the next row's line.
    expect(stoppedAt).toMatchObject({ cursor: JSON.stringify({ byte: 10 + 4 * 32, line: 6 }), links_created: 4 })
    // The rows before the place are overwritten with a quote never closed (as many bytes): a reader
    // that parsed the file again from its start would find no row after it.
    const place = JSON.parse(stoppedAt!.cursor) as { byte: number }
    const poisoned = `${content.slice(0, 10)}${'"'.padEnd(place.byte - 10, 'x')}${content.slice(place.byte)}`
    await db.insertInto('import_files').values({ job_id: id, content: poisoned }).execute()

    // Counted at the source: the rows the resumed job hands to the link batch.
    let handed = 0
    const linkBatch = context.services.linkBatch
    const counting: typeof linkBatch = { writeLinks: (writer, rows, batchOptions) => ((handed += rows.length), linkBatch.writeLinks(writer, rows, batchOptions)) }
    const resumed = await createImportService({ jobs: repository, linkBatch: counting, chunkSize: 2 }).runJob(id)
    expect(handed).toBe(5)
    expect(resumed).toMatchObject({ state: 'done', links_created: 9, rows_read: 9, rows_skipped: 0, cursor: JSON.stringify({ byte: content.length, line: 11 }) })
    const aliases = await db.selectFrom('links').select('alias').where('account_id', '=', owner.id).where('alias', 'like', 'resume-%').execute()
    expect(aliases).toHaveLength(9)
    expect(await db.selectFrom('import_links').select('link_id').where('job_id', '=', id).execute()).toHaveLength(9)
  })

  it('downloads the whole report as CSV in the order of the file\'s lines, past a page of 1,000 rows', async () => {
    // A row without a URL is found when the file is read, a refused destination when its chunk is written: line 3 before line 2 in the table.
    const started = await upload(owner, { source: 'csv', onconflict: 'skip' }, { name: 'order.csv', content: 'url,alias\njavascript:alert(1),order-bad\n,order-empty\nhttps://example.com/ok,order-ok\n' })
    const id = started.data.id as number
    await finished(id)
    // More rows than a page, written out of line order, two without a line (as an old report may hold).
    const db = context.database.db
    const lines = Array.from({ length: 2_100 }, (_, index) => 10 + ((index * 7_919) % 2_100))
    for (let start = 0; start < lines.length; start += 500) {
      await db.insertInto('import_problems').values(lines.slice(start, start + 500).map((line) => ({ job_id: id, line, source_key: `/k${line}`, action: 'skipped', reason: 'Test.', alias: null, old_alias: null }))).execute()
    }
    await db.insertInto('import_problems').values([null, null].map((line, index) => ({ job_id: id, line, source_key: `unnumbered-${index}`, action: 'skipped', reason: 'Test.', alias: null, old_alias: null }))).execute()

    const csv = await api('GET', `/api/import/${id}/report`)
    expect(csv.statusCode).toBe(200)
    const rows = csv.body.trim().split('\r\n').slice(1).map((row) => row.split(','))
    expect(rows).toHaveLength(2 + 2 + 2_100)
    expect(rows.slice(0, 2).map((row) => row[1])).toEqual(['unnumbered-0', 'unnumbered-1'])
    const numbered = rows.slice(2).map((row) => Number(row[0]))
    expect(numbered).toEqual([2, 3, ...Array.from({ length: 2_100 }, (_, index) => 10 + index)])
    expect(rows[2]![1]).toBe('/order-bad')
  })
})
