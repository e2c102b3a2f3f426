// YOURLS imported from MariaDB (TEST_MYSQL_URL): its tables as YOURLS creates them
// (includes/functions-install.php), under a prefix of this run, filled, imported and compared.
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { openMysqlSource } from '../../../src/db/mysql-source.js'
import { checkYourlsTables, createYourlsReader } from '../../../src/modules/imports/yourls-source.js'
import { commandLineActor } from '../../../src/modules/changes/change-journal.js'

const MYSQL_URL = process.env.TEST_MYSQL_URL
const PREFIX = `lwtest_${process.pid}_${Date.now() % 100000}_`

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

describe.skipIf(!MYSQL_URL)('YOURLS import from MariaDB', () => {
  const { context, owner } = useTestApp()
  let admin: mysql.Connection

  beforeAll(async () => {
    admin = await mysql.createConnection({ uri: MYSQL_URL!, multipleStatements: true })
    await admin.query(
      `CREATE TABLE \`${PREFIX}url\` (\`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '', \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL, ` +
      `\`title\` text COLLATE utf8mb4_unicode_ci DEFAULT NULL, \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(), \`ip\` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL, ` +
      `\`clicks\` int(10) unsigned NOT NULL, PRIMARY KEY (\`keyword\`), KEY \`ip\` (\`ip\`), KEY \`timestamp\` (\`timestamp\`), KEY \`url_idx\` (\`url\`(30))) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;` +
      `CREATE TABLE \`${PREFIX}log\` (\`click_id\` int(11) NOT NULL auto_increment, \`click_time\` datetime NOT NULL, \`shorturl\` varchar(100) BINARY NOT NULL, \`referrer\` varchar(200) NOT NULL, ` +
      `\`user_agent\` varchar(255) NOT NULL, \`ip_address\` varchar(41) NOT NULL, \`country_code\` char(2) NOT NULL, PRIMARY KEY (\`click_id\`), KEY \`shorturl\` (\`shorturl\`)) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`,
    )
    await admin.query(`INSERT INTO \`${PREFIX}url\` VALUES ('yl-one','https://example.com/one','One','2022-01-02 03:04:05','1.2.3.4',3),('yl-two','https://example.com/two',NULL,'2022-02-03 04:05:06','1.2.3.4',2),('yl-evil','javascript:alert(1)','Evil','2022-02-03 04:05:06','1.2.3.4',1)`)
    const clicks = [
      ['2023-01-01 10:00:00', 'yl-one', 'https://www.google.com/search?q=x', CHROME, 'US'],
      ['2023-01-01 11:00:00', 'yl-one', 'direct', IPHONE, 'DE'],
      ['2023-01-02 12:00:00', 'yl-one', 'https://news.ycombinator.com/item', CHROME, 'US'],
      ['2023-01-03 09:00:00', 'yl-two', 'direct', IPHONE, 'FR'],
      ['2023-01-04 09:00:00', 'yl-two', 'https://t.co/abc', CHROME, ''],
      ['2023-01-05 09:00:00', 'yl-evil', 'direct', CHROME, 'US'],
    ]
    await admin.query(`INSERT INTO \`${PREFIX}log\` (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES ?`, [clicks.map((click) => [click[0], click[1], click[2], click[3], '10.0.0.1', click[4]])])
  })

  afterAll(async () => {
    await admin?.query(`DROP TABLE IF EXISTS \`${PREFIX}url\`, \`${PREFIX}log\``)
    await admin?.end()
  })

  async function importOnce() {
    const source = await openMysqlSource(MYSQL_URL!)
    try {
      await checkYourlsTables(source, PREFIX)
      const imports = context.services.imports
      const id = await imports.startCommandLineImport(commandLineActor(owner.id), 'yourls', `${MYSQL_URL}#${PREFIX}`, { onconflict: 'skip', prefix: PREFIX })
      return await imports.runJob(id, { reader: createYourlsReader(source, PREFIX) })
    } finally {
      await source.close()
    }
  }

  it('imports links and clicks so that statistics equal the source, and nothing twice when run again', async () => {
    const job = await importOnce()
    expect(job).toMatchObject({ state: 'done', links_created: 2, rows_skipped: 1, clicks_imported: 5 })
    const db = context.database.db
    const links = await db.selectFrom('links').select(['id', 'alias', 'url', 'title', 'created_at', 'clicks']).where('account_id', '=', owner.id).orderBy('alias').execute()
    expect(links.map(({ id: _id, ...link }) => link)).toEqual([
      { alias: 'yl-one', url: 'https://example.com/one', title: 'One', created_at: '2022-01-02 03:04:05', clicks: 3 },
      { alias: 'yl-two', url: 'https://example.com/two', title: null, created_at: '2022-02-03 04:05:06', clicks: 2 },
    ])
    // Totals by country and referrer equal the source's log for the imported links.
    const one = links[0]!.id
    const totals = await db.selectFrom('click_totals').select(['dimension', 'value', 'clicks']).where('item_type', '=', 'link').where('item_id', '=', one).where('dimension', 'in', ['country', 'referrer', 'browser', 'os']).execute()
    const of = (dimension: string) => Object.fromEntries(totals.filter((row) => row.dimension === dimension).map((row) => [row.value, Number(row.clicks)]))
    expect(of('country')).toEqual({ US: 2, DE: 1 })
    expect(of('referrer')).toEqual({ 'google.com': 1, '': 1, 'news.ycombinator.com': 1 })
    expect(of('browser')).toEqual({ Chrome: 2, 'Mobile Safari': 1 })
    expect(of('os')).toEqual({ Windows: 2, iOS: 1 })
    const raw = await db.selectFrom('clicks').select(['created_at', 'country']).where('item_id', '=', one).where('item_type', '=', 'link').orderBy('created_at').execute()
    expect(raw.map((click) => click.created_at)).toEqual(['2023-01-01 10:00:00', '2023-01-01 11:00:00', '2023-01-02 12:00:00'])
    const problems = await db.selectFrom('import_problems').select(['source_key', 'reason']).where('job_id', '=', job.id).execute()
    expect(problems).toEqual([{ source_key: 'yl-evil', reason: expect.stringContaining('"url"') }])

    const again = await importOnce()
    expect(again).toMatchObject({ state: 'done', links_created: 0, links_existing: 2, clicks_imported: 0 })
    expect(await db.selectFrom('clicks').select('id').where('account_id', '=', owner.id).execute()).toHaveLength(5)
  })

  it('reads clicks in link order, resumes a stopped job at its cursor without importing a click twice, and reads on a click-id cursor in id order', async () => {
    // Clicks of three new links, interleaved in time as visits come: link order is not id order.
    await admin.query(`INSERT INTO \`${PREFIX}url\` VALUES ('yl-p-b','https://example.com/pb',NULL,'2022-03-01 00:00:00','1.2.3.4',3),('yl-p-a','https://example.com/pa',NULL,'2022-03-01 00:00:00','1.2.3.4',2),('yl-p-c','https://example.com/pc',NULL,'2022-03-01 00:00:00','1.2.3.4',2)`)
    const visits = [['yl-p-b', 'US'], ['yl-p-a', 'DE'], ['yl-p-c', 'FR'], ['yl-p-b', 'US'], ['yl-p-a', 'GB'], ['yl-p-b', 'JP'], ['yl-p-c', 'FR']]
    await admin.query(`INSERT INTO \`${PREFIX}log\` (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES ?`, [visits.map(([keyword, country], index) => [`2024-05-0${index + 1} 10:00:00`, keyword, 'direct', CHROME, '10.0.0.1', country])])
    const [[{ first }]] = await admin.query(`SELECT min(click_id) AS first FROM \`${PREFIX}log\` WHERE shorturl LIKE 'yl-p-%'`) as unknown as [[{ first: number }]]

    const source = await openMysqlSource(MYSQL_URL!)
    try {
      const reader = createYourlsReader(source, PREFIX)
      // Pages of 2 in link order: every click once, by link then id.
      const read: Array<{ key: string; createdAt: string }> = []
      const cursors: string[] = []
      for (let cursor = '0'; ;) {
        const page = await reader.clicks(cursor, 2)
        if (!page) break
        expect(page.clicks.length).toBeLessThanOrEqual(2)
        read.push(...page.clicks.map((click) => ({ key: click.linkKey, createdAt: click.createdAt })))
        cursors.push((cursor = page.last))
      }
      const mine = read.filter((click) => click.key.startsWith('yl-p-'))
      expect(mine.map((click) => click.key)).toEqual(['yl-p-a', 'yl-p-a', 'yl-p-b', 'yl-p-b', 'yl-p-b', 'yl-p-c', 'yl-p-c'])
      expect(mine.map((click) => click.createdAt)).toEqual(['2024-05-02', '2024-05-05', '2024-05-01', '2024-05-04', '2024-05-06', '2024-05-03', '2024-05-07'].map((day) => `${day} 10:00:00`))
      expect(read).toHaveLength(13)
      expect(JSON.parse(cursors[0]!)).toEqual([expect.any(String), expect.any(Number)])
      // A job started before clicks were read in link order kept a click id: it reads on in id order.
      const byId = await reader.clicks(String(first + 3), 10)
      expect(byId!.clicks.map((click) => click.linkKey)).toEqual(['yl-p-a', 'yl-p-b', 'yl-p-c'])
      expect(byId!.last).toBe(String(first + 6))

      // A job stopped after its third page of clicks (the first two hold only links it did not
      // create), left running as a process that died leaves it, then run again.
      const imports = context.services.imports
      const id = await imports.startCommandLineImport(commandLineActor(owner.id), 'yourls', `${MYSQL_URL}#${PREFIX}`, { onconflict: 'skip', prefix: PREFIX })
      let pages = 0
      const stopping = { ...reader, clicks: async (cursor: string) => {
        if (++pages === 4) throw new Error('stopped')
        return reader.clicks(cursor, 2)
      } }
      await expect(imports.runJob(id, { reader: stopping })).rejects.toThrow('stopped')
      const db = context.database.db
      await db.updateTable('import_jobs').set({ state: 'running', error: null, finished_at: null }).where('id', '=', id).execute()
      const stoppedAt = (await db.selectFrom('import_jobs').select(['cursor', 'clicks_imported', 'phase']).where('id', '=', id).executeTakeFirstOrThrow())
      expect(stoppedAt).toMatchObject({ phase: 'clicks', clicks_imported: 2 })
      expect(JSON.parse(stoppedAt.cursor)).toEqual([expect.stringMatching(/^yl-/), expect.any(Number)])
      const resumed = await imports.runJob(id, { reader: { ...reader, clicks: (cursor: string) => reader.clicks(cursor, 2) } })
      expect(resumed).toMatchObject({ state: 'done', links_created: 3, clicks_imported: 7 })
      const links = await db.selectFrom('links').select(['alias', 'clicks']).where('account_id', '=', owner.id).where('alias', 'like', 'yl-p-%').orderBy('alias').execute()
      expect(links).toEqual([{ alias: 'yl-p-a', clicks: 2 }, { alias: 'yl-p-b', clicks: 3 }, { alias: 'yl-p-c', clicks: 2 }])
      const countries = await db.selectFrom('click_totals').innerJoin('links', 'links.id', 'click_totals.item_id').select(['links.alias', 'click_totals.value', 'click_totals.clicks'])
        .where('click_totals.item_type', '=', 'link').where('click_totals.dimension', '=', 'country').where('links.alias', 'like', 'yl-p-%').orderBy('links.alias').orderBy('click_totals.value').execute()
      expect(countries.map((row) => [row.alias, row.value, Number(row.clicks)])).toEqual([['yl-p-a', 'DE', 1], ['yl-p-a', 'GB', 1], ['yl-p-b', 'JP', 1], ['yl-p-b', 'US', 2], ['yl-p-c', 'FR', 2]])
    } finally {
      await source.close()
    }
  })

  it('fails with a one-line reason on a wrong password or a missing table, reading nothing', async () => {
    const wrong = new URL(MYSQL_URL!)
    wrong.password = 'not-the-password'
    wrong.username = 'no_such_user_lw'
    await expect(openMysqlSource(wrong.toString())).rejects.toThrow(/Access denied/)
    const source = await openMysqlSource(MYSQL_URL!)
    try {
      await expect(checkYourlsTables(source, 'missing_prefix_')).rejects.toThrow('The YOURLS table "missing_prefix_url" is not in the source database (check --prefix).')
    } finally {
      await source.close()
    }
  })
})
