// `linkwell secrets seal`: seals with SECRETS_KEY the TOTP and webhook secrets stored before the
// key was set (ADR 025). Reading them needs no such step (a plain value is read as it is); this
// makes a copy of the database hold none. Each row is rewritten only while it still holds the
// plain value read, so a secret changed meanwhile is not overwritten. The services seal with the
// box built from SECRETS_KEY in the composition root.
import { CliFailure, type Command } from './command.js'

export const SECRET_COMMANDS: Command[] = [
  {
    name: 'secrets seal',
    usage: '',
    summary: 'seal with SECRETS_KEY the TOTP and webhook secrets stored before it was set',
    options: {},
    async run(_values, { config, twoFactor, webhooks }) {
      if (!config.secretsKey) throw new CliFailure('SECRETS_KEY is not set: there is no key to seal the secrets with.')
      return { sealed: { totp: await twoFactor.sealStoredSecrets(), webhooks: await webhooks.sealStoredSecrets() } }
    },
  },
]
