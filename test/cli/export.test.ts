// `linkwell export links|clicks|conversions` as child processes: the file holds what the API's export answers,
// written as it is read; bad options exit 2 naming them, an unknown account exits 1, no file written.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createLink, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { apiClient } from '../helpers/test-app.js'
import { createSharedDatabase, runCli, type SharedDatabase } from './cli-runner.js'
import { expectFailure, recordClicks } from './click-commands-support.js'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

describe('linkwell export', () => {
  let shared: SharedDatabase
  let made: WithServices
  let owner: TestAccount
  let folder: string

  beforeAll(async () => {
    shared = await createSharedDatabase()
    made = servicesFor(shared.handle)
    owner = await createAccount(made)
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-export-'))
  })
  afterAll(async () => {
    await shared.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  /** The command ended well, wrote `lines` lines to `file`, and they are the bytes the API answers at `served`. */
  async function expectWrittenAsServed(run: Awaited<ReturnType<typeof runCli>>, file: string, lines: number, served: string): Promise<void> {
    expect(run.code, run.stderr).toBe(0)
    expect(run.json).toMatchObject({ file, lines })
    expect(fs.readFileSync(file, 'utf8')).toBe((await apiClient(await shared.app(), owner.apiKey)('GET', served)).body)
  }

  it('writes the links and the clicks the API exports, to the file named', async () => {
    const link = await createLink(made, owner, { url: 'https://cli-export.example/a', metatitle: 'Hello, "CLI"' })
    await recordClicks(shared.handle.db, [
      { accountId: owner.id, itemType: 'link', itemId: link.id, ip: '81.2.69.160', userAgent: CHROME, referrer: undefined, acceptLanguage: undefined, at: new Date('2026-04-01T08:00:00Z') },
      { accountId: owner.id, itemType: 'link', itemId: link.id, ip: '8.8.8.8', userAgent: CHROME, referrer: undefined, acceptLanguage: undefined, at: new Date('2026-04-05T08:00:00Z') },
    ])
    const [links, clicks] = [path.join(folder, 'links.csv'), path.join(folder, 'clicks.ndjson')]
    // The short URLs are the server's: the command reads the same PUBLIC_URL as the app of this test.
    const [linkRun, clickRun] = await Promise.all([
      runCli(shared.url, ['export', 'links', '--account', owner.username, '--out', links], { PUBLIC_URL: 'https://lw.test' }),
      runCli(shared.url, ['export', 'clicks', '--account', String(owner.id), '--out', clicks, '--format', 'ndjson', '--to', '2026-04-02']),
    ])
    await expectWrittenAsServed(linkRun, links, 2, '/api/export/links')
    await expectWrittenAsServed(clickRun, clicks, 1, '/api/export/clicks?format=ndjson&to=2026-04-02')
    expect(JSON.parse(fs.readFileSync(clicks, 'utf8'))).toMatchObject({ date: '2026-04-01 08:00:00', country: 'GB', itemid: link.id })
  })

  it('writes the leads and sales the API exports (issue 39), to the file named', async () => {
    const link = await createLink(made, owner, { url: 'https://cli-export.example/shop' })
    const db = shared.handle.db
    const customer = await db.insertInto('customers').values({ account_id: owner.id, external_id: 'cli-cus', name: 'Cli', email: null, created_at: '2026-04-01 09:00:00' }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('leads').values({ account_id: owner.id, customer_id: customer.id, click_id: 'cli-click', link_id: link.id, event: 'lead', metadata: null, clicked_at: '2026-04-01 08:00:00', created_at: '2026-04-01 09:00:00' }).execute()
    await db.insertInto('sales').values({ account_id: owner.id, customer_id: customer.id, click_id: 'cli-click', link_id: link.id, amount: 4900, currency: 'EUR', invoice_id: 'cli-inv', event: 'purchase', metadata: null, source: 'api', clicked_at: '2026-04-01 08:00:00', created_at: '2026-04-02 10:00:00' }).execute()
    const [csv, ndjson] = [path.join(folder, 'conversions.csv'), path.join(folder, 'conversions.ndjson')]
    const [csvRun, ndjsonRun] = await Promise.all([
      runCli(shared.url, ['export', 'conversions', '--account', owner.username, '--out', csv], { PUBLIC_URL: 'https://lw.test' }),
      runCli(shared.url, ['export', 'conversions', '--account', String(owner.id), '--out', ndjson, '--format', 'ndjson', '--from', '2026-04-02'], { PUBLIC_URL: 'https://lw.test' }),
    ])
    await expectWrittenAsServed(csvRun, csv, 3, '/api/export/conversions')
    await expectWrittenAsServed(ndjsonRun, ndjson, 1, '/api/export/conversions?format=ndjson&from=2026-04-02')
    expect(JSON.parse(fs.readFileSync(ndjson, 'utf8'))).toMatchObject({ type: 'sale', amount: 4900, currency: 'EUR', invoiceid: 'cli-inv', customerid: 'cli-cus', link: link.id })
  })

  it('refuses bad options (exit 2) and an unknown account (exit 1), writing nothing', async () => {
    const out = path.join(folder, 'never.csv')
    const cases: Array<[1 | 2, string, string[]]> = [
      [2, 'missing --out', ['export', 'links', '--account', owner.username]],
      [2, '--format must be one of csv, json, got "xml"', ['export', 'links', '--account', owner.username, '--out', out, '--format', 'xml']],
      [2, '--format must be one of csv, ndjson, got "json"', ['export', 'clicks', '--account', owner.username, '--out', out, '--format', 'json']],
      [2, '--from must be a real date', ['export', 'clicks', '--account', owner.username, '--out', out, '--from', '2026-02-30']],
      [2, '--to must not be before "from"', ['export', 'clicks', '--account', owner.username, '--out', out, '--from', '2026-03-02', '--to', '2026-03-01']],
      [2, '--format must be one of csv, ndjson, got "json"', ['export', 'conversions', '--account', owner.username, '--out', out, '--format', 'json']],
      [2, '--from must be a real date', ['export', 'conversions', '--account', owner.username, '--out', out, '--from', '2026-02-30']],
      [1, 'No account with the id or username "nobody-here"', ['export', 'links', '--account', 'nobody-here', '--out', out]],
    ]
    const results = await Promise.all(cases.map(([, , args]) => runCli(shared.url, args)))
    results.forEach((result, index) => expectFailure(result, cases[index]![0], cases[index]![1], cases[index]![2].join(' ')))
    expect(fs.existsSync(out)).toBe(false)
  })
})
