// `linkwell key create|list|revoke`: an account's further API keys, by the rules of POST /api/key/add.
import { commandLineActor } from '../modules/changes/change-journal.js'
import { API_KEY_RESOURCES, parseResources, type ApiKeyResource, type ApiKeyScope } from '../modules/access/api-key-scopes.js'
import { accountCommand, text, UsageError, wholeNumber, type Command, type Values } from './command.js'

/** `--scope links --scope qr` (or `--scope links,qr`) and `--read-only`; full access when neither is given. */
function scopeOptions(values: Values): ApiKeyScope {
  let resources: ApiKeyResource[] | null = null
  if (values.scope !== undefined) {
    const names = (values.scope as string[]).flatMap((entry) => entry.split(',')).map((name) => name.trim()).filter(Boolean)
    try {
      resources = parseResources(names, 'scope')
    } catch {
      throw new UsageError(`--scope must name resources among ${API_KEY_RESOURCES.join(', ')}, got "${names.join(',')}"`)
    }
  }
  return { resources, readOnly: values['read-only'] === true }
}

export const KEY_COMMANDS: Command[] = [
  accountCommand({
    name: 'key create',
    usage: "[--name N] [--expires 'YYYY-MM-DD HH:MM:SS'] [--scope R]... [--read-only]",
    summary: `create a further API key (printed once, with what key list shows of it), limited to the resources R (${API_KEY_RESOURCES.join(', ')}) and/or reads`,
    options: { name: { type: 'string' }, expires: { type: 'string' }, scope: { type: 'string', multiple: true }, 'read-only': { type: 'boolean' } },
    check: (values) => void scopeOptions(values),
    async run(account, values, { apiKeys }) {
      // The name and expiry rules are the service's, as for POST /api/key/add (a refusal exits 2).
      const { key, ...created } = await apiKeys.createNamedKey(commandLineActor(account.id), {
        // Blank is "not given", as the API reads an optional field (ADR 013): the default name.
        name: text(values, 'name')?.trim() || undefined,
        expires: text(values, 'expires'),
        scope: scopeOptions(values),
      })
      // What `key list` shows of the key, and the key itself (named as by `account create`).
      return { ...created, apiKey: key }
    },
  }),
  accountCommand({
    name: 'key list',
    usage: '',
    summary: 'list keys (never the keys themselves)',
    options: {},
    async run(account, _values, { apiKeys }) {
      return apiKeys.listKeys(account.id)
    },
  }),
  accountCommand({
    name: 'key revoke',
    usage: '--id N',
    summary: 'delete a key; it stops working at once',
    options: { id: { type: 'string' } },
    required: ['id'],
    check: (values) => void wholeNumber(text(values, 'id') ?? '1', 'id'),
    async run(account, values, { apiKeys }) {
      const keyId = wholeNumber(text(values, 'id')!, 'id')
      await apiKeys.revokeKey(commandLineActor(account.id), keyId)
      return { id: keyId, revoked: true }
    },
  }),
]
