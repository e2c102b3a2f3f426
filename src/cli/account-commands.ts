// `linkwell account create|list|suspend|unsuspend|password`: workspaces and their first key, as the
// administration API makes and shows them.
import { commandLineActor } from '../modules/changes/change-journal.js'
import { toUserRecord } from '../modules/admin/admin.mapper.js'
import { accountCommand, text, type Command } from './command.js'

function setSuspended(suspended: boolean, summary: string): Command {
  return accountCommand({
    name: `account ${suspended ? 'suspend' : 'unsuspend'}`,
    usage: '',
    summary,
    options: {},
    async run(account, _values, { accounts }) {
      await accounts.setSuspended(commandLineActor(account.id), account.id, suspended)
      return { id: account.id, username: account.username, suspended }
    },
  })
}

export const ACCOUNT_COMMANDS: Command[] = [
  {
    name: 'account create',
    usage: '--email E --username U [--admin] [--plan P] [--password PW]',
    summary: 'create an account and its first API key (printed once)',
    options: { email: { type: 'string' }, username: { type: 'string' }, admin: { type: 'boolean' }, plan: { type: 'string' }, password: { type: 'string' } },
    required: ['email', 'username'],
    async run(values, { accounts }) {
      const created = await accounts.createAccount({
        email: text(values, 'email')!,
        username: text(values, 'username')!,
        password: text(values, 'password'),
        plan: text(values, 'plan'),
        isAdmin: values.admin === true,
      })
      return { id: created.id, username: created.username, email: created.email, apiKey: created.apiKey }
    },
  },
  {
    name: 'account list',
    usage: '',
    summary: 'list accounts as GET /api/users shows them',
    options: {},
    async run(_values, { accounts, config }) {
      // Each as GET /api/users shows it: the spec's Account with the admin and suspended flags.
      return (await accounts.listAllAccounts()).map((account) => toUserRecord(account, config.publicUrl))
    },
  },
  setSuspended(true, "refuse the account's keys (403) until unsuspended"),
  setSuspended(false, "accept the account's keys again"),
  accountCommand({
    name: 'account password',
    usage: '',
    summary: "set the password (to sign in to the dashboard) from the first line of standard input; signs out the account's sessions",
    options: {},
    async run(account, _values, { accounts, readInputLine }) {
      const password = await readInputLine()
      const ended = await accounts.setPassword(commandLineActor(account.id), account.id, password)
      return { id: account.id, username: account.username, passwordSet: true, sessionsEnded: ended }
    },
  }),
]
