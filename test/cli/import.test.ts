// `linkwell import kutt|shlink|linkwell` run as the real command line (issue 21): a Kutt and a
// Shlink database (SQLite files with the tables their own migrations make) and Linkwell's own
// export files imported into the database the test shares with the command; exit codes, the
// report printed, a second run importing nothing twice, and bad options refused (exit 2, naming
// the option) before anything is read.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount, createDomain, createLink, servicesFor, type TestAccount, type WithServices } from '../helpers/factories.js'
import { createSharedDatabase, runCli, type SharedDatabase } from './cli-runner.js'
import { expectFailure, recordClicks } from './click-commands-support.js'
import { openScratchSource, type ScratchSource } from '../modules/imports/source-databases.js'
import { CHROME, kuttRows, kuttTables, shlinkRows, shlinkTables } from '../modules/imports/source-schemas.js'

describe('linkwell import kutt|shlink|linkwell', () => {
  let shared: SharedDatabase
  let made: WithServices
  let owner: TestAccount
  let kutt: ScratchSource
  let shlink: ScratchSource
  let folder: string

  beforeAll(async () => {
    shared = await createSharedDatabase()
    made = servicesFor(shared.handle)
    owner = await createAccount(made)
    const host = (await createDomain(made, owner)).hostname
    kutt = await openScratchSource('sqlite')
    await kutt.exec(`${kuttTables('sqlite')};\n${kuttRows('sqlite', 'kc-', host)}`)
    shlink = await openScratchSource('sqlite')
    await shlink.exec(`${shlinkTables('sqlite', (name) => name)};\n${shlinkRows('sqlite', (name) => name, 'sc-', host)}`)
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'linkwell-cli-import-'))
  })

  afterAll(async () => {
    await kutt.drop()
    await shlink.drop()
    await shared.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  it('imports a Kutt database and prints the report; run again, it imports nothing twice', async () => {
    const first = await runCli(shared.url, ['import', 'kutt', '--account', owner.username, '--database', kutt.url])
    expect(first.code, first.stderr).toBe(0)
    expect(first.json).toMatchObject({ state: 'done', created: 2, renamed: 0, existing: 0, skipped: 2, clicks: 6 })
    const again = await runCli(shared.url, ['import', 'kutt', '--account', String(owner.id), '--database', kutt.url, '--on-conflict', 'skip'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.json).toMatchObject({ state: 'done', created: 0, existing: 2, clicks: 0 })
    expect(again.json.id).not.toBe(first.json.id)
  })

  it('imports a Shlink database and prints the report', async () => {
    const run = await runCli(shared.url, ['import', 'shlink', '--account', owner.username, '--database', shlink.url, '--on-conflict', 'rename'])
    expect(run.code, run.stderr).toBe(0)
    expect(run.json).toMatchObject({ state: 'done', created: 2, skipped: 1, clicks: 4 })
  })

  it('imports Linkwell\'s own export files (links and clicks) into another account', async () => {
    const link = await createLink(made, owner, { url: 'https://cli-import.example/a', custom: 'cli-import-a' })
    await recordClicks(shared.handle.db, [
      { accountId: owner.id, itemType: 'link', itemId: link.id, ip: '81.2.69.160', userAgent: CHROME, referrer: undefined, acceptLanguage: undefined, at: new Date('2026-04-01T08:00:00Z') },
    ])
    const [links, clicks] = [path.join(folder, 'links.csv'), path.join(folder, 'clicks.csv')]
    expect((await runCli(shared.url, ['export', 'links', '--account', owner.username, '--out', links])).code).toBe(0)
    expect((await runCli(shared.url, ['export', 'clicks', '--account', owner.username, '--out', clicks])).code).toBe(0)
    const other = await createAccount(made)
    // Aliases on the main domain are one address for all accounts: the other account gets the links renamed.
    const run = await runCli(shared.url, ['import', 'linkwell', '--account', other.username, '--links', links, '--clicks', clicks, '--on-conflict', 'rename'])
    expect(run.code, run.stderr).toBe(0)
    // The owner's export holds the Kutt and Shlink imports' links and clicks too when those tests ran first
    // (those on the owner's branded domain are skipped: the other account has no such domain).
    expect(run.json).toMatchObject({ state: 'done' })
    expect(run.json.created).toBe(run.json.renamed)
    expect(run.json.clicks).toBeGreaterThanOrEqual(1)
    const imported = await shared.handle.db.selectFrom('links').select(['alias', 'clicks']).where('account_id', '=', other.id).where('url', '=', 'https://cli-import.example/a').executeTakeFirstOrThrow()
    expect(imported).toMatchObject({ alias: 'cli-import-a-2', clicks: 1 })
  })

  it('refuses bad options with exit 2 naming the option, and a file it cannot read with exit 1', async () => {
    const account = ['--account', owner.username]
    expectFailure(await runCli(shared.url, ['import', 'kutt', ...account]), 2, '--database', 'kutt without --database')
    expectFailure(await runCli(shared.url, ['import', 'kutt', ...account, '--database', 'mysql://root@127.0.0.1/x']), 2, 'database', 'kutt from MySQL')
    expectFailure(await runCli(shared.url, ['import', 'shlink', ...account, '--database', shlink.url, '--on-conflict', 'merge']), 2, 'on-conflict', 'a bad conflict choice')
    expectFailure(await runCli(shared.url, ['import', 'shlink', ...account, '--database', shlink.url, '--bogus', 'x']), 2, '--bogus', 'an unknown option')
    expectFailure(await runCli(shared.url, ['import', 'linkwell', ...account]), 2, '--links', 'linkwell without --links')
    expectFailure(await runCli(shared.url, ['import', 'linkwell', ...account, '--links', path.join(folder, 'missing.csv')]), 1, 'import failed', 'a links file that is not there')
    expectFailure(await runCli(shared.url, ['import', 'kutt', ...account, '--database', `sqlite:${path.join(folder, 'none.db')}`]), 1, 'Kutt', 'a Kutt database without its tables')
  }, 180_000)
})
