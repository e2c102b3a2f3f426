// The round trip (issue 21): links (tags, campaign, options) and clicks made in one instance,
// exported through the API (links as CSV, clicks as CSV and as NDJSON), imported into empty
// instances (`linkwell import linkwell`: importLinkwell), give the same links, redirects and totals.
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp, type TestAppSession } from '../../helpers/test-app.js'
import { createCampaign, createChannel } from '../../helpers/factories.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'
import { writeEnrichedClicks } from '../../../src/analytics/click-writer.js'
import { totalsOf } from './source-databases.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

async function* linesOf(text: string): AsyncGenerator<string> {
  yield* text.split(/\r?\n/)
}

describe('export from one instance, import into empty ones', () => {
  const from = useTestApp()
  const intoCsv = useTestApp()
  const intoNdjson = useTestApp()
  const intoBroken = useTestApp()
  let links = ''
  let clicksCsv = ''
  let clicksNdjson = ''
  let original: Record<string, unknown>[] = []
  let totals: Record<string, Record<string, Record<string, number>>> = {}

  beforeAll(async () => {
    const { context, owner, api } = from
    const campaign = await createCampaign(context, owner, { name: 'Spring' })
    // A channel named by digits: the export's names are read as names, never as this instance's ids.
    const channel = await createChannel(context, owner, { name: '2024' })
    const one = await api('POST', '/api/url/add', {
      url: 'https://example.com/rt-one', custom: 'rt-one', metatitle: 'Round, "one"', metadescription: 'Two lines,\nsecond', tags: ['spring', 'print'], campaign, channel,
      utm: { source: 'news', medium: 'email' }, clicklimit: 1000, ios: 'https://apps.apple.com/app/id1', expiredurl: 'https://example.com/expired',
      geotarget: [{ location: 'DE', link: 'https://example.de/' }], expiry: '2031-01-01 00:00:00',
    })
    const two = await api('POST', '/api/url/add', { url: 'https://example.com/rt-two', custom: 'rt-two', tags: ['print'], variants: [{ url: 'https://example.com/rt-two-b', weight: 50 }, { url: 'https://example.com/rt-two-c', weight: 50 }] })
    expect([one.statusCode, two.statusCode], one.body + two.body).toEqual([201, 201])
    const agent = { browser: 'Chrome', os: 'Windows', device: 'desktop' }
    const click = (itemId: number, createdAt: string, country: string | null, referrerHost: string | null, isUnique: boolean, browser = agent) => ({
      accountId: owner.id, itemType: 'link' as const, itemId, createdAt, referrerHost, language: 'en', visitorHash: 'seed', country, agent: browser, isUnique,
    })
    await context.database.db.transaction().execute((trx) => writeEnrichedClicks(trx, [
      click(one.data.id, '2024-05-01 10:00:00', 'US', 'google.com', true),
      click(one.data.id, '2024-05-01 11:00:00', 'DE', null, false, { browser: 'Mobile Safari', os: 'iOS', device: 'mobile' }),
      click(one.data.id, '2024-05-02 12:00:00', 'US', 't.co', true, { browser: 'Firefox', os: 'Linux', device: 'desktop' }),
      click(two.data.id, '2024-05-03 09:00:00', 'FR', null, true),
    ]))
    // And one visit through the redirect, as a live click is counted.
    await context.app.inject({ method: 'GET', url: '/rt-two', headers: { 'user-agent': CHROME, referer: 'https://news.ycombinator.com/item' } })
    await context.clicks.flush()

    links = (await api('GET', '/api/export/links?format=csv')).body
    clicksCsv = (await api('GET', '/api/export/clicks?format=csv')).body
    clicksNdjson = (await api('GET', '/api/export/clicks?format=ndjson')).body
    expect(clicksNdjson.trim().split('\n')).toHaveLength(5)
    // As they were exported (the redirects compared below add clicks to both instances).
    original = await exportedLinks(from)
    totals = await totalsByAlias(from)
  })

  async function exportedLinks(session: TestAppSession) {
    const records = JSON.parse((await session.api('GET', '/api/export/links?format=json')).body) as Record<string, unknown>[]
    return records.map(({ id: _id, campaign: _campaign, health: _health, ...record }) => record)
  }

  async function totalsByAlias(session: TestAppSession) {
    const db = session.context.database.db
    const rows = await db.selectFrom('links').select(['id', 'alias']).where('account_id', '=', session.owner.id).orderBy('alias').execute()
    return Object.fromEntries(await Promise.all(rows.map(async (row) => [row.alias, await totalsOf(db, row.id)] as const)))
  }

  it.each([['CSV', () => intoCsv, () => clicksCsv], ['NDJSON', () => intoNdjson, () => clicksNdjson]] as const)('gives the same links, redirects and totals with clicks as %s', async (_format, into, clicks) => {
    const target = into()
    // Campaigns and channels are matched by name (ids are the other instance's).
    await createCampaign(target.context, target.owner, { name: 'Spring' })
    await createChannel(target.context, target.owner, { name: '2024' })
    const imports = target.context.services.imports
    const request = { linksName: 'links.csv', links, clicks: { name: 'clicks', open: () => linesOf(clicks()) }, onconflict: 'fail' as const }
    const job = await imports.importLinkwell(commandLineActor(target.owner.id), request)
    expect(job, job.error ?? '').toMatchObject({ state: 'done', links_created: 2, rows_skipped: 0, clicks_imported: 5 })

    expect(original).toMatchObject([
      { alias: 'rt-one', title: 'Round, "one"', description: 'Two lines,\nsecond', tags: ['print', 'spring'], campaignname: 'Spring', channel: '2024', clicks: 3, uniqueclicks: 2, clicklimit: 1000, utm: { source: 'news', medium: 'email' }, expiry: '2031-01-01 00:00:00' },
      { alias: 'rt-two', tags: ['print'], channel: null, clicks: 2, variants: [{ url: 'https://example.com/rt-two-b', weight: 50 }, { url: 'https://example.com/rt-two-c', weight: 50 }] },
    ])
    expect(await exportedLinks(target)).toEqual(original)
    expect(totals['rt-one']!.country).toEqual({ US: 2, DE: 1 })
    expect(totals['rt-two']!.referrer).toEqual({ '': 1, 'news.ycombinator.com': 1 })
    expect(await totalsByAlias(target)).toEqual(totals)
    for (const alias of ['rt-one']) {
      const request = { method: 'GET' as const, url: `/${alias}`, headers: { 'user-agent': CHROME } }
      const [a, b] = [await from.context.app.inject(request), await target.context.app.inject(request)]
      expect(b.statusCode).toBe(a.statusCode)
      expect(b.headers.location).toBe(a.headers.location)
      expect(b.headers.location).toContain('utm_source=news')
    }
    // Run again: nothing twice.
    const again = await imports.importLinkwell(commandLineActor(target.owner.id), { ...request, onconflict: 'skip' })
    expect(again).toMatchObject({ state: 'done', links_created: 0, links_existing: 2, clicks_imported: 0 })
  })

  it('reports each clicks line it cannot read, with its line in the file and why, and imports the rest', async () => {
    const target = intoBroken
    await createCampaign(target.context, target.owner, { name: 'Spring' })
    await createChannel(target.context, target.owner, { name: '2024' })
    const [header, first, ...rest] = clicksCsv.split('\r\n')
    const id = first!.split(',')[0]!
    // Line 3: a quote never closed; 5 (after a blank line 4): no date; 6: no link id. The other lines are clicks.
    const broken = [header, first, `${id},"2024-05-01 10:00:00,link`, '', first!.replace(/^([^,]*),[^,]*,/, '$1,yesterday,'), first!.replace(/^([^,]*,[^,]*,link),[^,]*,/, '$1,abc,'), ...rest].join('\r\n')
    const imports = target.context.services.imports
    const job = await imports.importLinkwell(commandLineActor(target.owner.id), { linksName: 'links.csv', links, clicks: { name: 'clicks.csv', open: () => linesOf(broken) }, onconflict: 'fail' })
    expect(job, job.error ?? '').toMatchObject({ state: 'done', links_created: 2, clicks_imported: 5 })
    const { problems } = await imports.getImport(target.owner.id, job.id)
    expect(problems.map((problem) => [problem.line, problem.action, problem.source_key])).toEqual([[3, 'skipped', 'clicks line 3'], [5, 'skipped', 'clicks line 5'], [6, 'skipped', 'clicks line 6']])
    expect(problems[0]!.reason).toMatch(/^Clicks file, line 3: The line could not be read: .*quote/i)
    expect(problems[1]!.reason).toBe('Clicks file, line 5: The date "yesterday" is no date.')
    expect(problems[2]!.reason).toBe('Clicks file, line 6: The link id "abc" is no id.')
  })
})
