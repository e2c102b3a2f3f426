// The providers a person may sign in with: the instance's own (OIDC_ISSUER, named `default`) and
// those the instance administrator keeps in the admin pages, whose client secret is sealed with
// SECRETS_KEY when set (core/secret-box.ts).
import type { SecretBox } from '../../core/secret-box.js'
import type { OidcConfig } from '../../config.js'
import { readDomainList } from '../../config.js'
import type { SsoProviderRow } from '../../db/schema.js'
import type { SsoRepository } from './sso.repository.js'
import type { ProviderSettings } from './oidc-client.js'

/** The name of the provider OIDC_ISSUER configures. */
export const CONFIGURED_PROVIDER = 'default'

export interface SsoProvidersOptions {
  sso: SsoRepository
  secrets: SecretBox
  configured: OidcConfig['provider']
}

export function createSsoProviders({ sso, secrets, configured }: SsoProvidersOptions) {
  const fromConfig: ProviderSettings | null = configured
    ? { name: CONFIGURED_PROVIDER, label: configured.label, issuer: configured.issuer, clientId: configured.clientId, clientSecret: configured.clientSecret, groupClaim: configured.groupClaim, allowedDomains: configured.allowedDomains }
    : null

  function fromRow(row: SsoProviderRow): ProviderSettings {
    return { name: row.name, label: row.label, issuer: row.issuer, clientId: row.client_id, clientSecret: secrets.open(row.client_secret), groupClaim: row.group_claim, allowedDomains: readDomainList(row.allowed_domains) }
  }

  return {
    async list(): Promise<ProviderSettings[]> {
      const stored = (await sso.listProviders()).map(fromRow)
      return fromConfig ? [fromConfig, ...stored] : stored
    },

    /** The provider by name; without one, the only provider or the configured one. */
    async find(name: string | undefined): Promise<ProviderSettings | undefined> {
      if (name === undefined || name === '') {
        if (fromConfig) return fromConfig
        const stored = await sso.listProviders()
        return stored.length === 1 ? fromRow(stored[0]!) : undefined
      }
      if (name === CONFIGURED_PROVIDER) return fromConfig ?? undefined
      const row = await sso.findProviderByName(name)
      return row ? fromRow(row) : undefined
    },
  }
}

export type SsoProviders = ReturnType<typeof createSsoProviders>
