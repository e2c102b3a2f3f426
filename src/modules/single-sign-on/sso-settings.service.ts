// The settings of single sign-on: the providers the instance administrator keeps (client secrets
// sealed with SECRETS_KEY when set), and each workspace's provider, requirement and group mapping.
import type { SecretBox } from '../../core/secret-box.js'
import { DuplicateError, NotFoundError, ValidationError } from '../../core/errors.js'
import { isHttpScheme } from '../../core/urls.js'
import { readDomainList, type OidcConfig } from '../../config.js'
import type { Bindable } from '../../db/transactions.js'
import type { ChangeJournal, Actor } from '../changes/change-journal.js'
import type { SsoProviderRow } from '../../db/schema.js'
import type { SsoRepository } from './sso.repository.js'
import { CONFIGURED_PROVIDER, type SsoProviders } from './sso-providers.js'
import type { ProviderInput, ProviderRecordType, WorkspaceSsoInput } from './sso.schemas.js'

export interface SsoSettingsOptions {
  sso: Bindable<SsoRepository>
  providers: SsoProviders
  secrets: SecretBox
  journal: ChangeJournal
  configured: OidcConfig['provider']
}

function toProviderRecord(row: SsoProviderRow): ProviderRecordType {
  return { id: row.id, name: row.name, label: row.label, issuer: row.issuer, clientid: row.client_id, groupclaim: row.group_claim, alloweddomains: row.allowed_domains, created: row.created_at }
}

function issuerOf(text: string): string {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw ValidationError.field('issuer', 'must be the provider\'s issuer URL')
  }
  if (!isHttpScheme(url)) throw ValidationError.field('issuer', 'must be an https URL')
  return url.href.replace(/\/$/, '')
}

export function createSsoSettingsService({ sso, providers, secrets, journal, configured }: SsoSettingsOptions) {
  return {
    async listProviders() {
      return {
        providers: (await sso.listProviders()).map(toProviderRecord),
        configured: configured ? { issuer: configured.issuer, clientid: configured.clientId, alloweddomains: configured.allowedDomains.join(',') } : null,
      }
    },

    async addProvider(actor: Actor, input: ProviderInput): Promise<ProviderRecordType> {
      if (input.name === CONFIGURED_PROVIDER) throw new DuplicateError('The name "default" is the provider of OIDC_ISSUER.', 'name')
      if (input.clientsecret === undefined) throw ValidationError.field('clientsecret', 'must be the client secret')
      if (await sso.findProviderByName(input.name)) throw new DuplicateError('A provider with this name already exists.', 'name')
      const issuer = issuerOf(input.issuer)
      const id = await journal.write(actor, async (trx) => {
        const created = await sso.in(trx).insertProvider({ name: input.name, label: input.label.trim(), issuer, clientId: input.clientid.trim(), clientSecret: secrets.seal(input.clientsecret!), groupClaim: input.groupclaim?.trim() || 'groups', allowedDomains: readDomainList(input.alloweddomains ?? '').join(',') })
        return { result: created, changes: [{ action: 'sso_provider.created', resource: 'sso_provider', resourceId: created, fields: Object.keys(input).filter((key) => key !== 'clientsecret').concat('clientsecret') }] }
      })
      return toProviderRecord((await sso.findProviderById(id))!)
    },

    async updateProvider(actor: Actor, id: number, input: ProviderInput): Promise<ProviderRecordType> {
      const row = await sso.findProviderById(id)
      if (!row) throw NotFoundError.of('Provider')
      if (input.name !== row.name) throw ValidationError.field('name', 'cannot change: people are linked to the provider by its name')
      const issuer = issuerOf(input.issuer)
      await journal.write(actor, async (trx) => {
        await sso.in(trx).updateProvider(id, { label: input.label.trim(), issuer, clientId: input.clientid.trim(), clientSecret: input.clientsecret === undefined ? undefined : secrets.seal(input.clientsecret), groupClaim: input.groupclaim?.trim() || 'groups', allowedDomains: readDomainList(input.alloweddomains ?? '').join(',') })
        return { result: undefined, changes: [{ action: 'sso_provider.updated', resource: 'sso_provider', resourceId: id, fields: Object.keys(input) }] }
      })
      return toProviderRecord((await sso.findProviderById(id))!)
    },

    async deleteProvider(actor: Actor, id: number): Promise<void> {
      await journal.write(actor, async (trx) => {
        if (!(await sso.in(trx).deleteProvider(id))) throw NotFoundError.of('Provider')
        return { result: undefined, changes: [{ action: 'sso_provider.deleted', resource: 'sso_provider', resourceId: id, fields: [] }] }
      })
    },

    async getWorkspace(accountId: number) {
      const settings = await sso.findWorkspace(accountId)
      const mapping = (await sso.listGroupRoles(accountId)).map((row) => ({ group: row.group_name, role: row.role as WorkspaceSsoInput['mapping'][number]['role'] }))
      const offered = (await providers.list()).map((provider) => ({ name: provider.name, label: provider.label }))
      return { provider: settings?.provider ?? null, required: settings?.require_sso === 1, mapping, providers: offered }
    },

    async saveWorkspace(actor: Actor, input: WorkspaceSsoInput) {
      if (!(await providers.find(input.provider))) throw ValidationError.field('provider', 'must name one of the instance\'s providers')
      const groups = new Set<string>()
      for (const [index, entry] of input.mapping.entries()) {
        const group = entry.group.trim()
        if (group === '') throw ValidationError.field(`mapping.${index}.group`, 'must not be blank')
        if (groups.has(group)) throw ValidationError.field(`mapping.${index}.group`, 'must name each group once')
        groups.add(group)
      }
      await journal.write(actor, async (trx) => {
        await sso.in(trx).saveWorkspace(actor.id, { provider: input.provider, requireSso: input.required, mapping: input.mapping.map((entry) => ({ group: entry.group.trim(), role: entry.role })) })
        return { result: undefined, changes: [{ action: input.required ? 'workspace.sso_required' : 'workspace.sso_updated', resource: 'account', resourceId: actor.id, fields: ['provider', 'required', 'mapping'] }] }
      })
      return this.getWorkspace(actor.id)
    },
  }
}

export type SsoSettingsService = ReturnType<typeof createSsoSettingsService>
