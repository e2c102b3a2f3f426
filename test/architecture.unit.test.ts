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

  it('audit rows are inserted by the audit log\'s repository only, for the change journal', () => {
    expect(filesMatching(/insertInto\(\s*['"]audit_log['"]/)).toEqual(['modules/audit/audit.repository.ts'])
    expect(filesMatching(/\baudit\.in\(trx\)\.insert\(/)).toEqual(['modules/changes/change-journal.ts'])
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

  it('whether a visit is a plain redirect is told in public/redirect-reply.ts only (redirectOf)', () => {
    expect(filesMatching(/page\.kind\s*[!=]==\s*['"]redirect['"]/)).toEqual(['public/redirect-reply.ts'])
  })

  it('a link\'s change for the journal is built in modules/links/link-changes.ts only', () => {
    expect(filesMatching(/resource:\s*['"]link['"]/)).toEqual(['modules/links/link-changes.ts'])
  })

  it('queue rows are claimed with skip locked in db/row-claims.ts only', () => {
    expect(filesMatching(/\.skipLocked\(/)).toEqual(['db/row-claims.ts'])
  })

  it('passwords are hashed with scrypt in core/secrets.ts only', () => {
    expect(filesMatching(/\bscrypt(Sync)?\b\s*(\(|as\b)/)).toEqual(['core/secrets.ts'])
  })
})

// Item 2 of issue 41: SQL lives in repositories, and each table has one owning repository file.
// Query builders (Kysely's selectFrom/insertInto/updateTable/deleteFrom, and raw sql``) are
// written in `*.repository.ts` files, in db/ (connections, migrations, the shared helpers such as
// owned-rows.ts and row-claims.ts) and in analytics/: the click store, whose writer, aggregates,
// retention, seed and columnar store own the click tables (`clicks`, `click_*`).
const QUERY_BUILDER = /\.(?:selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/

/** Where a file writes a table by name: a query builder, a db/owned-rows.ts helper, or a click-store bulk insert. */
const TABLE_WRITE = /\.(?:insertInto|updateTable|deleteFrom)\(\s*['"](\w+)['"]|\b(?:updateOwnedRow|deleteOwnedRow)\(\s*\w+\s*,\s*['"](\w+)['"]|\bcreateBulkInsert\(\s*['"](\w+)['"]|\bcreateConfigRowsRepository\(\s*\w+\s*,\s*['"](\w+)['"]/g

/** Each table written outside db/migrations/ (history, run once) → the files (relative to src/) that write it. */
function tableWriters(): Map<string, string[]> {
  const writers = new Map<string, string[]>()
  for (const file of sourceFiles()) {
    const relative = path.relative(SRC, file)
    if (relative.startsWith('db/migrations/')) continue
    for (const match of codeOf(file).matchAll(TABLE_WRITE)) {
      const table = match.slice(1).find((name) => name !== undefined)!
      const files = writers.get(table) ?? []
      if (!files.includes(relative)) files.push(relative)
      writers.set(table, files)
    }
  }
  return writers
}

/**
 * Tables that more than one file still writes, each with every file that does and why. Keep it
 * short: a new entry needs a reason a repository method cannot give.
 */
const SHARED_WRITES: Record<string, { files: string[]; why: string }> = {
  // The click batch's transaction counts each item's clicks on its own row (ADR 005); the bench and
  // test seed writes counters the same way. Both are the click store's, below modules/.
  links: { files: ['analytics/click-aggregates.ts', 'analytics/click-seed.ts', 'modules/links/link.repository.ts'], why: 'click counters' },
  campaigns: { files: ['analytics/click-aggregates.ts', 'modules/campaigns/campaign.repository.ts'], why: 'click counters' },
  qr_codes: { files: ['analytics/click-aggregates.ts', 'modules/qr-codes/qr-code.repository.ts'], why: 'click counters' },
  // The raw clicks and their visitors: inserted by the click writer, pruned by the retention (CLICK_RETENTION_DAYS).
  clicks: { files: ['analytics/click-retention.ts', 'analytics/click-writer.ts'], why: 'the click store: written, then pruned' },
  click_visitors: { files: ['analytics/click-retention.ts', 'analytics/click-writer.ts'], why: 'the click store: written, then pruned' },
  // The instance's settings: the daily visitor salt and the retention's last run, both the click store's.
  settings: { files: ['analytics/click-retention.ts', 'analytics/visitor-hash.ts'], why: 'click store state' },
  // Left for a next step (issue 41, item 2): the people repository writes beside each person's rows
  // what their change ends or locks (a password change ends sessions, removing a member deletes
  // their keys in the workspace, a membership change locks the account row), and two-factor
  // enrolment writes people's TOTP columns and a workspace's requirement. Each belongs in its
  // owner's repository, bound to the same transaction.
  accounts: { files: ['modules/accounts/account.repository.ts', 'modules/accounts/people.repository.ts', 'modules/accounts/two-factor.repository.ts'], why: 'a membership change locks the account row; two-factor requirement' },
  api_keys: { files: ['modules/accounts/people.repository.ts', 'modules/api-keys/api-key.repository.ts'], why: 'a removed member\'s keys' },
  people: { files: ['modules/accounts/people.repository.ts', 'modules/accounts/two-factor.repository.ts'], why: 'TOTP columns' },
  sessions: { files: ['modules/accounts/people.repository.ts', 'modules/accounts/session.repository.ts'], why: 'a password change ends sessions' },
}

describe('SQL lives in repositories, each table with one owner', () => {
  it('query builders are called only in *.repository.ts files, db/ and analytics/ (the click store)', () => {
    const elsewhere = filesMatching(QUERY_BUILDER).filter((file) => !file.endsWith('.repository.ts') && !file.startsWith('db/') && !file.startsWith('analytics/'))
    expect(elsewhere).toEqual([])
  })

  it('each table is written by one file, but for the commented shared writes', () => {
    const writers = tableWriters()
    // The rule sees the writes it should: a repository's own table, by each way of writing one.
    expect(writers.get('webhook_deliveries')).toEqual(['modules/webhooks/webhook-delivery.repository.ts'])
    expect(writers.get('utm_templates')).toEqual(['modules/utm-templates/utm-template.repository.ts'])
    expect(writers.get('click_days')).toEqual(['analytics/click-aggregates.ts'])
    expect(writers.get('overlays')).toEqual(['modules/overlays/overlay.repository.ts'])
    const shared = Object.fromEntries([...writers].filter(([, files]) => files.length > 1).map(([table, files]) => [table, [...files].sort()]))
    const allowed = Object.fromEntries(Object.entries(SHARED_WRITES).map(([table, { files }]) => [table, [...files].sort()]))
    expect(shared).toEqual(allowed)
  })
})
