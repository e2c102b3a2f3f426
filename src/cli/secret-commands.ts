// `linkwell secrets seal`: seals with SECRETS_KEY the TOTP and webhook secrets stored before the
// key was set (ADR 025). Reading them needs no such step (a plain value is read as it is); this
// makes a copy of the database hold none. Each row is rewritten only while it still holds the
// plain value read, so a secret changed meanwhile is not overwritten.
import { createSecretBox } from '../core/secret-box.js'
import { CliFailure, type Command } from './command.js'

export const SECRET_HELP = `  secrets seal                        seal with SECRETS_KEY the TOTP and webhook secrets stored before it was set
`

export const SECRET_COMMANDS: Record<string, Command> = {
  'secrets seal': {
    usage: 'secrets seal',
    options: {},
    async run(_values, { db, config }) {
      if (!config.secretsKey) throw new CliFailure('SECRETS_KEY is not set: there is no key to seal the secrets with.')
      const box = createSecretBox(config.secretsKey)
      let people = 0
      const persons = await db.selectFrom('people').select(['id', 'totp_secret', 'totp_pending_secret'])
        .where((where) => where.or([where('totp_secret', 'is not', null), where('totp_pending_secret', 'is not', null)])).execute()
      for (const person of persons) {
        for (const column of ['totp_secret', 'totp_pending_secret'] as const) {
          const stored = person[column]
          if (stored === null || box.isSealed(stored)) continue
          const result = await db.updateTable('people').set({ [column]: box.seal(stored) }).where('id', '=', person.id).where(column, '=', stored).executeTakeFirst()
          people += Number(result.numUpdatedRows)
        }
      }
      let webhooks = 0
      for (const webhook of await db.selectFrom('webhooks').select(['id', 'secret']).execute()) {
        if (box.isSealed(webhook.secret)) continue
        const result = await db.updateTable('webhooks').set({ secret: box.seal(webhook.secret) }).where('id', '=', webhook.id).where('secret', '=', webhook.secret).executeTakeFirst()
        webhooks += Number(result.numUpdatedRows)
      }
      return { sealed: { totp: people, webhooks } }
    },
  },
}
