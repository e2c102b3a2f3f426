// Every `linkwell` command, in the order `linkwell --help` lists them: each group's file defines its
// commands once (name, usage, summary, options, what runs), and the help is made from this list.
import { ACCOUNT_COMMANDS } from './account-commands.js'
import { AUDIT_COMMANDS } from './audit-commands.js'
import { CLICK_COMMANDS } from './click-commands.js'
import type { AnyCommand } from './command.js'
import { DATABASE_COMMANDS } from './database-commands.js'
import { EXPORT_COMMANDS } from './export-commands.js'
import { IMPORT_COMMANDS } from './import-commands.js'
import { KEY_COMMANDS } from './key-commands.js'
import { MEMBER_COMMANDS } from './member-commands.js'
import { PLAN_COMMANDS } from './plan-commands.js'
import { SECRET_COMMANDS } from './secret-commands.js'
import { SERVE_COMMAND } from './serve-command.js'

export const COMMANDS: readonly AnyCommand[] = [
  SERVE_COMMAND,
  ...ACCOUNT_COMMANDS,
  ...KEY_COMMANDS,
  ...MEMBER_COMMANDS,
  ...PLAN_COMMANDS,
  ...DATABASE_COMMANDS,
  ...EXPORT_COMMANDS,
  ...IMPORT_COMMANDS,
  ...CLICK_COMMANDS,
  ...AUDIT_COMMANDS,
  ...SECRET_COMMANDS,
]

/** The group of a command: the first word of its name (`account` for `account create`, `migrate` for `migrate`). */
export function groupOf(command: Pick<AnyCommand, 'name'>): string {
  return command.name.split(' ')[0]!
}
