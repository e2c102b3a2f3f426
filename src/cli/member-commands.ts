// `linkwell member list|role|remove`: a workspace's people, as the members API shows and changes them;
// the command line acts as the instance's operator (every role).
import { commandLineActor } from '../modules/changes/change-journal.js'
import type { AccountWithPlan } from '../modules/accounts/account.repository.js'
import { parseRole, ROLES } from '../modules/access/roles.js'
import { toMemberRecord } from '../modules/members/member.mapper.js'
import { accountCommand, CliFailure, text, UsageError, type Command, type CommandContext } from './command.js'

/** The member of `account` named by `--person` (id, username or e-mail), or the command fails naming it. */
async function memberOrFail(account: AccountWithPlan, reference: string, { members }: CommandContext) {
  const found = (await members.listMembers(account.id)).find(({ person }) =>
    String(person.id) === reference || person.username === reference || person.email === reference.toLowerCase())
  if (!found) throw new CliFailure(`No member "${reference}" in the workspace "${account.username}".`)
  return found
}

export const MEMBER_COMMANDS: Command[] = [
  accountCommand({
    name: 'member list',
    usage: '',
    summary: "the workspace's people with their roles, as GET /api/members lists them",
    options: {},
    async run(account, _values, { members }) {
      // The command line is no member: `you` is false for all.
      return (await members.listMembers(account.id)).map((member) => toMemberRecord(member, null))
    },
  }),
  accountCommand({
    name: 'member role',
    usage: '--person P --role R',
    summary: `change a member's role (${ROLES.join(', ')}); the last owner stays one`,
    options: { person: { type: 'string' }, role: { type: 'string' } },
    required: ['person', 'role'],
    check: (values) => {
      try {
        parseRole(text(values, 'role') ?? '')
      } catch {
        throw new UsageError(`--role must be one of ${ROLES.join(', ')}, got "${text(values, 'role')}"`)
      }
    },
    async run(account, values, context) {
      const member = await memberOrFail(account, text(values, 'person')!, context)
      const role = parseRole(text(values, 'role')!)
      await context.members.changeRole(commandLineActor(account.id), member.person.id, role)
      return { ...toMemberRecord(member, null), role }
    },
  }),
  accountCommand({
    name: 'member remove',
    usage: '--person P',
    summary: 'remove a member, with the API keys they made in the workspace',
    options: { person: { type: 'string' } },
    required: ['person'],
    async run(account, values, context) {
      const member = await memberOrFail(account, text(values, 'person')!, context)
      await context.members.removeMember(commandLineActor(account.id), member.person.id)
      return { id: member.person.id, username: member.person.username, removed: true }
    },
  }),
]
