import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyPassword } from '../../src/core/secrets.js'
import { apiClient } from '../helpers/test-app.js'
import { dashboardClient, sessionCookieOf, signIn } from '../helpers/dashboard-client.js'
import { testDialect } from '../helpers/test-database.js'
import { createSharedDatabase, freshSqliteUrl, runCli, runCliProcess, type CliResult, type SharedDatabase } from './cli-runner.js'

const STACK_TRACE = /\n\s+at |node:internal|\.ts:\d+:\d+/

describe('the linkwell command', () => {
  let shared: SharedDatabase
  let counter = 0

  beforeAll(async () => {
    shared = await createSharedDatabase()
  })
  afterAll(() => shared.close())

  /** Runs a command on the shared database; no output of the command ever carries a stack trace. */
  async function cli(...args: string[]): Promise<CliResult> {
    const result = await runCli(shared.url, args)
    expect(result.stderr).not.toMatch(STACK_TRACE)
    return result
  }

  /** Runs the `linkwell` process itself (for what only a process shows: the bin, exit codes, the relaunch). */
  async function cliProcess(...args: string[]): Promise<CliResult> {
    const result = await runCliProcess(shared.url, args)
    expect(result.stderr).not.toMatch(STACK_TRACE)
    return result
  }

  /**
   * Runs invocations that are independent of each other side by side (each process takes about a
   * second to start) and checks that each ends with `code` and says `mentions` on stderr only.
   */
  async function expectErrors(cases: Array<[code: 1 | 2, mentions: string, args: string[]]>, run = cli) {
    const results = await Promise.all(cases.map(([, , args]) => run(...args)))
    results.forEach((result, index) => {
      const [code, mentions, args] = cases[index]!
      const label = `linkwell ${args.join(' ')}`
      expect(result.code, label).toBe(code)
      expect(result.stdout, label).toBe('')
      expect(result.stderr, label).toContain(mentions)
    })
  }

  function uniqueName(prefix: string): string {
    counter += 1
    return `${prefix}_${process.pid}_${counter}`
  }

  async function createAccount(...extra: string[]) {
    const username = uniqueName('cli')
    const result = await cli('account', 'create', '--email', `${username}@example.com`, '--username', username, ...extra)
    expect(result.code, result.stderr).toBe(0)
    return result.json as { id: number; username: string; email: string; apiKey: string }
  }

  async function api(apiKey: string) {
    return apiClient(await shared.app(), apiKey)
  }

  describe('migrate', () => {
    it.runIf(testDialect === 'sqlite')('migrates a fresh database and reports what it applied, then nothing', async () => {
      const file = freshSqliteUrl()
      try {
        const first = await runCli(file.url, ['migrate'])
        expect(first.code, first.stderr).toBe(0)
        expect(first.json.applied).toContain('001-initial-schema')
        const second = await runCli(file.url, ['migrate'])
        expect(second.json).toEqual({ applied: [] })
      } finally {
        file.cleanup()
      }
    })

    it('reports nothing to apply on a migrated database', async () => {
      const result = await cli('migrate')
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toEqual({ applied: [] })
    })
  })

  describe('account', () => {
    it('creates an account and prints exactly {id, username, email, apiKey}; the key works over HTTP', async () => {
      const username = uniqueName('maker')
      const result = await cli('account', 'create', '--email', `${username}@Example.com`, '--username', username)
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toEqual({ id: expect.any(Number), username, email: `${username}@example.com`, apiKey: expect.stringMatching(/^lw_[A-Za-z0-9_-]{43}$/) })
      const response = await (await api(result.json.apiKey))('GET', '/api/account')
      expect(response.statusCode).toBe(200)
      expect(response.data.data).toMatchObject({ id: result.json.id, username, status: 'pro' })
      // Not an admin unless asked.
      expect((await (await api(result.json.apiKey))('GET', '/api/users')).statusCode).toBe(403)
    })

    it('creates an admin with a password on a named plan', async () => {
      const plan = await cli('plan', 'create', '--name', uniqueName('Team'), '--code', uniqueName('team'))
      const created = await createAccount('--admin', '--password', 'a good long password', '--plan', plan.json.code)
      const client = await api(created.apiKey)
      expect((await client('GET', '/api/users')).statusCode).toBe(200)
      expect((await client('GET', '/api/account')).data.data).toMatchObject({ status: plan.json.code, planid: plan.json.id })
      const stored = await shared.handle.db.selectFrom('people').innerJoin('memberships', 'memberships.person_id', 'people.id').select('people.password_hash').where('memberships.account_id', '=', created.id).executeTakeFirstOrThrow()
      expect(await verifyPassword('a good long password', stored.password_hash!)).toBe(true)
    })

    it('refuses bad command lines with exit 2 and a message', async () => {
      await expectErrors([
        [2, '--email', ['account', 'create', '--username', 'no_email']],
        [2, '--username', ['account', 'create', '--email', 'x@example.com']],
        [2, '--colour', ['account', 'create', '--email', 'x@example.com', '--username', 'x_user', '--colour', 'red']],
        [2, 'stray', ['account', 'create', '--email', 'x@example.com', '--username', 'x_user', 'stray']],
        [2, '"email"', ['account', 'create', '--email', 'not-an-email', '--username', 'x_user']],
        [2, '"username"', ['account', 'create', '--email', 'x@example.com', '--username', 'a b']],
        [2, '"password"', ['account', 'create', '--email', 'x@example.com', '--username', 'x_user', '--password', 'short']],
      ])
    })

    it('fails with exit 1 on a taken username or e-mail and on an unknown plan', async () => {
      const existing = await createAccount()
      await expectErrors([
        [1, 'username already exists', ['account', 'create', '--email', 'other@example.com', '--username', existing.username]],
        [1, 'e-mail address already exists', ['account', 'create', '--email', existing.email, '--username', uniqueName('other')]],
        [1, 'Plan not found', ['account', 'create', '--email', 'y@example.com', '--username', uniqueName('y'), '--plan', 'no-such-plan']],
      ])
    })

    it('lists accounts as GET /api/users shows them, without keys or password hashes', async () => {
      const created = await createAccount('--password', 'listed account password')
      const admin = await createAccount('--admin')
      await cli('account', 'suspend', '--account', created.username)
      // The CLI's PUBLIC_URL is the app's, so both build the same avatar addresses.
      const result = await runCli(shared.url, ['account', 'list'], { PUBLIC_URL: 'https://lw.test' })
      expect(result.code, result.stderr).toBe(0)
      const entry = (result.json as Array<{ id: number }>).find((account) => account.id === created.id)
      expect(entry).toEqual({
        id: created.id,
        username: created.username,
        email: created.email,
        avatar: `https://lw.test/avatar/${created.username}.svg`,
        status: 'pro',
        expires: null,
        planid: expect.any(Number),
        admin: false,
        suspended: true,
        registered: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      })
      const fromApi = await (await api(admin.apiKey))('GET', `/api/user/${created.id}`)
      expect(fromApi.statusCode).toBe(200)
      expect(entry).toEqual(fromApi.data.data)
      expect((result.json as Array<{ id: number; admin: boolean }>).find((account) => account.id === admin.id)?.admin).toBe(true)
      expect(result.stdout).not.toContain(created.apiKey)
      expect(result.stdout).not.toContain('scrypt')
    })

    it('suspends (the key answers 403) and unsuspends, by username or id', async () => {
      const created = await createAccount()
      const client = await api(created.apiKey)
      const suspended = await cli('account', 'suspend', '--account', created.username)
      expect(suspended.code, suspended.stderr).toBe(0)
      expect(suspended.json).toEqual({ id: created.id, username: created.username, suspended: true })
      expect((await client('GET', '/api/account')).statusCode).toBe(403)
      const lifted = await cli('account', 'unsuspend', '--account', String(created.id))
      expect(lifted.json).toEqual({ id: created.id, username: created.username, suspended: false })
      expect((await client('GET', '/api/account')).statusCode).toBe(200)
    })

    it('fails on an unknown account and needs --account', async () => {
      await expectErrors([
        [1, 'No account with the id or username "nobody_at_all"', ['account', 'suspend', '--account', 'nobody_at_all']],
        [1, '"999999"', ['account', 'unsuspend', '--account', '999999']],
        [1, 'No account', ['key', 'create', '--account', 'nobody_at_all']],
        [2, '--account', ['account', 'suspend']],
        [2, '--account', ['key', 'list']],
      ])
    })

    it('sets a password read from standard input (never argv), signing the account in to the dashboard and out of its sessions', async () => {
      const account = await createAccount()
      const app = await shared.app()
      const password = 'typed, not passed as an argument'
      const result = await runCli(shared.url, ['account', 'password', '--account', account.username], {}, `${password}\n`)
      expect(result.code, result.stderr).toBe(0)
      expect(result.json).toEqual({ id: account.id, username: account.username, passwordSet: true, sessionsEnded: 0 })
      expect(result.stdout).not.toContain(password)
      const signedIn = await signIn(app, account.username, password)
      expect(signedIn.statusCode).toBe(200)

      // Setting it again ends the session just opened; only the first line counts, spaces kept.
      const again = await runCli(shared.url, ['account', 'password', '--account', String(account.id)], {}, ' second  password \r\nignored line\n')
      expect(again.json).toMatchObject({ sessionsEnded: 1 })
      expect((await dashboardClient(app, sessionCookieOf(signedIn)!)('GET', '/api/account')).statusCode).toBe(401)
      const stored = await shared.handle.db.selectFrom('people').innerJoin('memberships', 'memberships.person_id', 'people.id').select('people.password_hash').where('memberships.account_id', '=', account.id).executeTakeFirstOrThrow()
      expect(await verifyPassword(' second  password ', stored.password_hash!)).toBe(true)
    })

    it('refuses an empty standard input, a short password and an unknown account', async () => {
      const account = await createAccount()
      const results = await Promise.all([
        runCli(shared.url, ['account', 'password', '--account', account.username], {}, ''),
        runCli(shared.url, ['account', 'password', '--account', account.username], {}, 'short\n'),
        runCli(shared.url, ['account', 'password', '--account', 'nobody_at_all'], {}, 'long enough password\n'),
        runCli(shared.url, ['account', 'password', '--account', account.username, '--password', 'x'], {}, 'long enough password\n'),
      ])
      expect(results.map((result) => result.code)).toEqual([2, 2, 1, 2])
      expect(results[0]!.stderr).toContain('no password on standard input')
      expect(results[1]!.stderr).toContain('at least 8 characters')
      expect(results[2]!.stderr).toContain('No account')
      expect(results[3]!.stderr).toContain("Unknown option '--password'")
      results.forEach((result) => expect(result.stderr).not.toMatch(STACK_TRACE))
      const stored = await shared.handle.db.selectFrom('people').innerJoin('memberships', 'memberships.person_id', 'people.id').select('people.password_hash').where('memberships.account_id', '=', account.id).executeTakeFirstOrThrow()
      expect(stored.password_hash).toBeNull()
    })
  })

  describe('key', () => {
    it('creates a further key with a name and an expiry, lists keys without secrets, revokes one', async () => {
      const account = await createAccount()
      const created = await cli('key', 'create', '--account', account.username, '--name', '  deploy bot ', '--expires', '2099-12-31 23:59:59')
      expect(created.code, created.stderr).toBe(0)
      expect(created.json).toEqual({
        id: expect.any(Number),
        name: 'deploy bot',
        prefix: created.json.apiKey.slice(0, 8),
        expires: '2099-12-31 23:59:59',
        scopes: null,
        readonly: false,
        apiKey: expect.stringMatching(/^lw_[A-Za-z0-9_-]{43}$/),
      })
      const client = await api(created.json.apiKey)
      expect((await client('GET', '/api/account')).data.data.id).toBe(account.id)

      const listed = await cli('key', 'list', '--account', String(account.id))
      expect(listed.code).toBe(0)
      expect(listed.json).toEqual([
        { id: expect.any(Number), name: 'default', prefix: account.apiKey.slice(0, 8), expires: null, created: expect.any(String), lastused: null, scopes: null, readonly: false },
        { id: created.json.id, name: 'deploy bot', prefix: created.json.apiKey.slice(0, 8), expires: '2099-12-31 23:59:59', created: expect.any(String), lastused: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/), scopes: null, readonly: false },
      ])
      expect(listed.stdout).not.toContain(created.json.apiKey)
      expect(listed.stdout).not.toContain(account.apiKey)
      expect(listed.stdout).not.toMatch(/[0-9a-f]{64}/)

      const revoked = await cli('key', 'revoke', '--account', account.username, '--id', String(created.json.id))
      expect(revoked.json).toEqual({ id: created.json.id, revoked: true })
      const refused = await client('GET', '/api/account')
      expect(refused.statusCode).toBe(401)
      // The first key still works.
      expect((await (await api(account.apiKey))('GET', '/api/account')).statusCode).toBe(200)
      await expectErrors([[1, 'API key not found', ['key', 'revoke', '--account', account.username, '--id', String(created.json.id)]]])
    })

    it('creates a key limited to resources and to reads (issue 13)', async () => {
      const account = await createAccount()
      const created = await cli('key', 'create', '--account', account.username, '--scope', 'links', '--scope', 'qr,links', '--read-only')
      expect(created.code, created.stderr).toBe(0)
      expect(created.json).toMatchObject({ scopes: ['links', 'qr'], readonly: true })
      const client = await api(created.json.apiKey)
      expect((await client('GET', '/api/urls')).statusCode).toBe(200)
      const write = await client('POST', '/api/url/add', { url: 'https://example.com' })
      expect(write.statusCode).toBe(403)
      expect(write.data.message).toBe('You do not have access to this endpoint with this API key.')
      expect((await client('GET', '/api/campaigns')).statusCode).toBe(403)
      const listed = await cli('key', 'list', '--account', account.username)
      expect(listed.json[1]).toMatchObject({ id: created.json.id, scopes: ['links', 'qr'], readonly: true })
      await expectErrors([[2, '--scope must name resources among links', ['key', 'create', '--account', account.username, '--scope', 'everything']]])
    })

    it("cannot revoke another account's key", async () => {
      const owner = await createAccount()
      const intruder = await createAccount()
      const keys = await cli('key', 'list', '--account', owner.username)
      const ownerKeyId = String(keys.json[0].id)
      await expectErrors([[1, 'API key not found', ['key', 'revoke', '--account', intruder.username, '--id', ownerKeyId]]])
      expect((await (await api(owner.apiKey))('GET', '/api/account')).statusCode).toBe(200)
    })

    it('refuses bad key options with exit 2', async () => {
      const account = await createAccount()
      const target = ['--account', account.username]
      await expectErrors([
        [2, 'The field "expires" is not a real calendar date-time.', ['key', 'create', ...target, '--expires', 'next week']],
        [2, 'The field "expires" is not a real calendar date-time.', ['key', 'create', ...target, '--expires', '2030-02-30']],
        [2, 'The field "expires" must be in the future.', ['key', 'create', ...target, '--expires', '2001-01-01']],
        [2, 'The field "name" must be 1 to 100 characters.', ['key', 'create', ...target, '--name', 'x'.repeat(101)]],
        [2, '--id', ['key', 'revoke', ...target, '--id', 'abc']],
        [2, '--id', ['key', 'revoke', ...target]],
      ])
      expect((await cli('key', 'list', ...target)).json).toHaveLength(1)
    })

    it('creates keys by the rules of POST /api/key/add: the same defaults, and the same refusals in the same words', async () => {
      const account = await createAccount()
      const target = ['--account', account.username]
      const plain = await cli('key', 'create', ...target)
      const overHttp = await (await api(account.apiKey))('POST', '/api/key/add', {})
      expect(overHttp.statusCode).toBe(201)
      const { key: _shownOnce, error: _envelope, ...httpRecord } = overHttp.data
      const { apiKey: _alsoShownOnce, ...cliRecord } = plain.json
      expect(cliRecord).toEqual({ ...httpRecord, id: cliRecord.id, prefix: cliRecord.prefix })
      expect(cliRecord).toMatchObject({ name: 'key', expires: null, scopes: null, readonly: false })

      // Values that pass the request schema and reach the service's rules.
      // A blank name is "not given" on both (ADR 013): the default name.
      const blank = await cli('key', 'create', ...target, '--name', '   ')
      expect(blank.json).toMatchObject({ name: 'key' })
      expect((await (await api(account.apiKey))('POST', '/api/key/add', { name: '   ' })).data).toMatchObject({ name: 'key' })
      for (const [option, value] of [['--expires', '2030-02-30'], ['--expires', '2001-01-01 00:00:00']] as const) {
        const refused = await cli('key', 'create', ...target, option, value)
        const field = option.slice(2)
        const answer = await (await api(account.apiKey))('POST', '/api/key/add', { [field]: value })
        expect(answer.statusCode, `${field}=${value}`).toBe(400)
        expect(refused.code).toBe(2)
        expect(refused.stderr).toBe(`linkwell: ${answer.data.message}\n`)
      }
    })
  })

  describe('member', () => {
    it('lists a workspace\'s people as GET /api/members does, changes a role and removes a member; the last owner stays one', async () => {
      const account = await createAccount()
      const owner = (await cli('member', 'list', '--account', account.username)).json as Array<{ id: number; username: string; role: string }>
      expect(owner).toEqual([{ id: expect.any(Number), username: account.username, email: account.email, role: 'owner', twofactor: false, lastsignin: null, joined: expect.any(String), you: false }])
      // A second person, as an invitation accepted would add them.
      const app = await shared.app()
      const invited = await apiClient(app, account.apiKey)('POST', '/api/member/invite', { email: `member-of-${account.username}@example.com`, role: 'viewer' })
      const token = invited.data.url.split('#').pop()
      const joined = await app.inject({ method: 'POST', url: '/api/invitation/accept', headers: { 'content-type': 'application/json', origin: 'https://lw.test', 'x-linkwell-csrf': '1' }, payload: JSON.stringify({ token, username: `m_${account.username}`.slice(0, 32), password: 'member password' }) })
      expect(joined.statusCode, joined.body).toBe(200)

      const promoted = await cli('member', 'role', '--account', account.username, '--person', `member-of-${account.username}@example.com`, '--role', 'editor')
      expect(promoted.code, promoted.stderr).toBe(0)
      expect(promoted.json).toMatchObject({ role: 'editor' })
      // The same records as the API's, but for `you`: the command line is none of them.
      const overHttp = await apiClient(app, account.apiKey)('GET', '/api/members')
      const fromApi = (overHttp.data.data.members as Array<{ you: boolean }>).map((member) => ({ ...member, you: false }))
      expect(fromApi).toHaveLength(2)
      expect((await cli('member', 'list', '--account', account.username)).json).toEqual(fromApi)
      await expectErrors([
        [1, 'A workspace must keep at least one owner', ['member', 'role', '--account', account.username, '--person', String(owner[0]!.id), '--role', 'viewer']],
        [1, 'No member "nobody-here"', ['member', 'remove', '--account', account.username, '--person', 'nobody-here']],
        [2, '--role must be one of viewer, editor, admin, owner', ['member', 'role', '--account', account.username, '--person', 'x', '--role', 'boss']],
      ])
      const removed = await cli('member', 'remove', '--account', account.username, '--person', `member-of-${account.username}@example.com`)
      expect(removed.json).toMatchObject({ removed: true })
      expect(((await cli('member', 'list', '--account', account.username)).json as unknown[]).length).toBe(1)
    })
  })

  describe('plan', () => {
    it('creates a plan with a rate and limits, lists it, and the rate applies to its accounts', async () => {
      const name = uniqueName('Limited')
      const code = uniqueName('limited')
      const created = await cli('plan', 'create', '--name', name, '--code', code, '--apirate', '7', '--limit', 'campaigns=1', '--limit', 'links=50')
      expect(created.code, created.stderr).toBe(0)
      expect(created.json).toEqual({ id: expect.any(Number), name, code, apirate: 7, limits: { campaigns: 1, links: 50 }, default: false })
      const listed = await cli('plan', 'list')
      expect(listed.json).toContainEqual(created.json)
      expect(listed.json).toContainEqual({ id: expect.any(Number), name: 'Pro', code: 'pro', apirate: null, limits: {}, default: true })

      const account = await createAccount('--plan', String(created.json.id))
      const client = await api(account.apiKey)
      const response = await client('GET', '/api/account')
      expect(response.headers['x-ratelimit-limit']).toBe('7')
      expect((await client('POST', '/api/campaign/add', { name: 'first' })).statusCode).toBe(201)
      expect((await client('POST', '/api/campaign/add', { name: 'second' })).statusCode).toBe(403)
    })

    it('refuses bad plan options with exit 2 and duplicates with exit 1', async () => {
      await expectErrors([
        [2, '--code', ['plan', 'create', '--name', 'No code']],
        [2, '--apirate', ['plan', 'create', '--name', 'Bad rate', '--code', 'bad_rate', '--apirate', 'fast']],
        [2, '--apirate', ['plan', 'create', '--name', 'Zero rate', '--code', 'zero_rate', '--apirate', '0']],
        [2, '--limit', ['plan', 'create', '--name', 'Bad limit', '--code', 'bad_limit', '--limit', 'campaigns']],
        [2, 'spaceships', ['plan', 'create', '--name', 'Odd limit', '--code', 'odd_limit', '--limit', 'spaceships=3']],
        [2, '"code"', ['plan', 'create', '--name', 'Bad code', '--code', 'has space']],
        [2, '"name"', ['plan', 'create', '--name', 'x', '--code', 'short_name']],
        [1, 'A plan with this name already exists.', ['plan', 'create', '--name', 'Pro', '--code', 'another']],
        [1, 'A plan with this code already exists.', ['plan', 'create', '--name', 'Another Pro', '--code', 'pro']],
      ])
      const names = ((await cli('plan', 'list')).json as Array<{ name: string }>).map((plan) => plan.name)
      expect(names).not.toContain('Bad rate')
      expect(names).not.toContain('Another Pro')
    })
  })

  // The `linkwell` process itself: its exit codes, its output streams, the relaunch of a long command
  // with the server's heap settings. Nothing here depends on the database: once, on SQLite, is enough.
  describe.runIf(testDialect === 'sqlite')('as a process: help and errors', () => {
    it("prints help with --help and exits 0: a command's group's with a command (test/cli/help.unit.test.ts checks what it lists)", async () => {
      const results = await Promise.all([['--help'], ['-h'], ['account', 'create', '--help']].map((args) => cliProcess(...args)))
      for (const result of results) {
        expect(result.code).toBe(0)
        expect(result.stderr).toBe('')
        expect(result.stdout).toContain('Usage: linkwell <command> [options]')
        expect(result.stdout).toContain('account create --email E --username U')
      }
      expect(results[0]!.stdout).toContain('key revoke --account A --id N')
      expect(results[1]!.stdout).toBe(results[0]!.stdout)
      expect(results[2]!.stdout).not.toContain('key revoke')
    })

    it('exits 2 without a command or with an unknown one', async () => {
      await expectErrors(
        [
          [2, 'no command given', []],
          [2, 'unknown command "frobnicate"', ['frobnicate']],
          [2, 'unknown command "account explode"', ['account', 'explode']],
          [2, 'no command given', ['--email', 'x']],
        ],
        cliProcess,
      )
    })

    it('exits 1 naming the variable when the configuration is bad, without a stack trace', async () => {
      const result = await runCliProcess('mysql://localhost/db', ['account', 'list'])
      expect(result.code).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toContain('DATABASE_URL')
      expect(result.stderr).not.toMatch(STACK_TRACE)
    })

    it('answers JSON on stdout with exit 0, and a long command (import) answers through its relaunch with its exit code', async () => {
      const migrated = await cliProcess('migrate')
      expect(migrated.code, migrated.stderr).toBe(0)
      expect(migrated.json).toEqual({ applied: [] })
      const account = await createAccount()
      const failed = await cliProcess('import', 'linkwell', '--account', account.username, '--links', '/nonexistent/links.csv')
      expect(failed.code).toBe(1)
      expect(failed.stdout).toBe('')
      expect(failed.stderr).toContain('import failed')
      // The relaunch is real: with flags Node refuses, `import` fails at its second start and a
      // command that is not relaunched (migrate) runs as ever.
      const refused = { LINKWELL_NODE_FLAGS: '--no-such-node-flag' }
      const relaunched = await runCliProcess(shared.url, ['import', 'linkwell', '--account', account.username, '--links', '/nonexistent/links.csv'], refused)
      expect(relaunched.code).not.toBe(0)
      expect(relaunched.stderr).toContain('--no-such-node-flag')
      expect((await runCliProcess(shared.url, ['migrate'], refused)).code).toBe(0)
    })
  })

  describe.runIf(testDialect === 'sqlite')('in the command thread: help and errors', () => {
    it('answers help and usage errors as the process does', async () => {
      const help = await cli('--help')
      expect(help.code).toBe(0)
      expect(help.stdout).toContain('Usage: linkwell <command> [options]')
      await expectErrors([[2, 'unknown command "frobnicate"', ['frobnicate']]])
    })
  })
})
