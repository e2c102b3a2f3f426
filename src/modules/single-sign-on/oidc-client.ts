// The relying party's side of OpenID Connect, with openid-client 6 (the certified library): the
// provider's metadata discovered (and kept a few minutes), the authorization URL with PKCE, state
// and nonce, the code exchanged and the ID token verified (signature against the provider's JWKS,
// issuer, audience, expiry, nonce), and the groups read again with a refresh token or userinfo.
// What fails is told as a reason (sso-errors.ts), never as the library's text.
import * as oidc from 'openid-client'
import { isPlainHttp } from '../../core/urls.js'
import { SingleSignOnError } from './sso-errors.js'

/** A provider as the sign-in uses it: from OIDC_* (`default`) or the admin pages. */
export interface ProviderSettings {
  name: string
  label: string
  issuer: string
  clientId: string
  clientSecret: string
  groupClaim: string
  allowedDomains: string[]
}

/** What a provider says of the person: the ID token's claims, and userinfo's where the token lacks them. */
export interface ProviderClaims {
  subject: string
  email: string | undefined
  emailVerified: boolean
  /** The provider's preferred username or name, for a new person's username. */
  preferredName: string | undefined
  groups: string[]
  /** Present when the provider gave one (kept sealed for the recheck). */
  refreshToken: string | undefined
}

export interface OidcClientOptions {
  /** `{PUBLIC_URL}/api/auth/oidc/callback`: the redirect URI registered at the provider. */
  redirectUri: string
  /** OIDC_ALLOW_HTTP: plain http issuers on a loopback host are accepted (tests); never another host. */
  allowHttpLoopback: boolean
  /** Seconds a request to the provider may take. */
  timeoutSeconds?: number
  /** How long discovered metadata is reused, in milliseconds. */
  metadataMs?: number
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** True when the failure is the provider not answering (refused, reset, timed out), through any cause. */
function isUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|UND_ERR_\w+)$/.test(code)) return true
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || (error.name === 'TypeError' && /fetch failed/i.test(error.message))) return true
  return isUnreachable(error.cause, depth + 1)
}

/** The codes, messages and compared claims of an error and its causes. */
function causesOf(error: unknown): { codes: Set<string>; messages: string; claims: Set<string> } {
  const codes = new Set<string>()
  const claims = new Set<string>()
  const messages: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const { code, message, claim, cause } = current as { code?: unknown; message?: unknown; claim?: unknown; cause?: unknown }
    if (typeof code === 'string') codes.add(code)
    if (typeof message === 'string') messages.push(message)
    if (typeof claim === 'string') claims.add(claim)
    current = cause
  }
  return { codes, messages: messages.join(' | '), claims }
}

/** The library's failure of a callback as one of our reasons. */
function callbackFailure(error: unknown): SingleSignOnError {
  if (error instanceof SingleSignOnError) return error
  if (isUnreachable(error)) return SingleSignOnError.unavailable()
  if (error instanceof oidc.AuthorizationResponseError) return SingleSignOnError.providerRefused(error.error)
  // The provider refused the code: used already, expired, or not issued to us.
  if (error instanceof oidc.ResponseBodyError) return error.error === 'invalid_grant' ? SingleSignOnError.code() : SingleSignOnError.providerRefused(error.error)
  // The library's outer error is generic; the check that failed is named in its causes.
  const { codes, messages, claims } = causesOf(error)
  if (codes.has('OAUTH_JWT_CLAIM_COMPARISON_FAILED') && (claims.has('nonce') || /"nonce"/.test(messages))) return SingleSignOnError.token('nonce')
  if (codes.has('OAUTH_JWT_CLAIM_COMPARISON_FAILED') && (claims.has('aud') || /"aud"|audience/i.test(messages))) return SingleSignOnError.token('audience')
  if (codes.has('OAUTH_JWT_TIMESTAMP_CHECK_FAILED')) return SingleSignOnError.token('expired')
  if (codes.has('OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') && /state/i.test(messages)) return SingleSignOnError.state()
  // A signature that does not verify, a key the provider does not publish, a malformed token.
  return SingleSignOnError.token('signature')
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
}

/** A group claim as a list of names: an array of strings, or one string. */
function groupsOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.filter((entry): entry is string => typeof entry === 'string')
  return undefined
}

export function createOidcClient(options: OidcClientOptions) {
  const timeout = options.timeoutSeconds ?? 5
  const metadataMs = options.metadataMs ?? 5 * 60_000
  const discovered = new Map<string, { at: number; configuration: Promise<oidc.Configuration> }>()

  /** The provider's configuration, discovered once per few minutes; a failure is not kept. */
  async function configurationOf(provider: ProviderSettings): Promise<oidc.Configuration> {
    const key = JSON.stringify([provider.issuer, provider.clientId, provider.clientSecret])
    const cached = discovered.get(key)
    if (cached && Date.now() - cached.at < metadataMs) return cached.configuration
    const issuer = new URL(provider.issuer)
    const insecure = isPlainHttp(issuer)
    if (insecure && !(options.allowHttpLoopback && LOOPBACK_HOSTS.has(issuer.host.replace(/:\d+$/, '')))) throw SingleSignOnError.insecureIssuer()
    const configuration = oidc.discovery(issuer, provider.clientId, undefined, oidc.ClientSecretBasic(provider.clientSecret), {
      timeout,
      // The ID token's signature is checked against the provider's JWKS too (by default
      // openid-client trusts TLS for a token endpoint's answer): a forged token is refused, whatever carried it.
      execute: insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks],
    })
    discovered.set(key, { at: Date.now(), configuration })
    try {
      return await configuration
    } catch (error) {
      discovered.delete(key)
      throw isUnreachable(error) ? SingleSignOnError.unavailable() : SingleSignOnError.misconfigured()
    }
  }

  /** Reads groups (and what else is missing) from userinfo when the ID token did not carry them. */
  async function withUserInfo(configuration: oidc.Configuration, accessToken: string, claims: Record<string, unknown>, groupClaim: string): Promise<Record<string, unknown>> {
    if (groupClaim in claims && 'email' in claims) return claims
    const info = await oidc.fetchUserInfo(configuration, accessToken, String(claims.sub))
    return { ...info, ...claims, [groupClaim]: claims[groupClaim] ?? info[groupClaim] }
  }

  function claimsOf(claims: Record<string, unknown>, groupClaim: string, refreshToken: string | undefined): ProviderClaims {
    return {
      subject: String(claims.sub),
      email: stringClaim(claims.email)?.toLowerCase(),
      // Only a literal true: "true" as text, or a missing claim, is not a verified address.
      emailVerified: claims.email_verified === true,
      preferredName: stringClaim(claims.preferred_username) ?? stringClaim(claims.nickname) ?? stringClaim(claims.name),
      groups: groupsOf(claims[groupClaim]) ?? [],
      refreshToken,
    }
  }

  return {
    /** Whether the provider answers its discovery document now (the sign-in page's buttons). */
    async isAvailable(provider: ProviderSettings): Promise<boolean> {
      try {
        await configurationOf(provider)
        return true
      } catch {
        return false
      }
    },

    /** The provider's authorization URL for a new sign-in, and the secrets its callback needs. */
    async start(provider: ProviderSettings): Promise<{ url: URL; state: string; nonce: string; codeVerifier: string }> {
      const configuration = await configurationOf(provider)
      const codeVerifier = oidc.randomPKCECodeVerifier()
      const state = oidc.randomState()
      const nonce = oidc.randomNonce()
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      })
      return { url, state, nonce, codeVerifier }
    },

    /**
     * Exchanges the callback's code (PKCE) and verifies the ID token (signature, issuer, audience,
     * expiry, nonce) and the state; answers what the provider says of the person.
     */
    async finish(provider: ProviderSettings, callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<ProviderClaims> {
      const configuration = await configurationOf(provider)
      try {
        const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true })
        const idClaims = tokens.claims()
        if (!idClaims) throw SingleSignOnError.token('signature')
        const claims = await withUserInfo(configuration, tokens.access_token, idClaims, provider.groupClaim)
        return claimsOf(claims, provider.groupClaim, tokens.refresh_token)
      } catch (error) {
        throw callbackFailure(error)
      }
    },

    /**
     * Reads the person's claims again with their refresh token (the recheck). Throws
     * SingleSignOnError `gone` when the provider refuses the token (the person left, or was
     * signed out there), `unavailable` when it does not answer.
     */
    async refresh(provider: ProviderSettings, refreshToken: string, subject: string): Promise<ProviderClaims> {
      const configuration = await configurationOf(provider)
      try {
        const tokens = await oidc.refreshTokenGrant(configuration, refreshToken)
        const idClaims = tokens.claims()
        const claims = await withUserInfo(configuration, tokens.access_token, idClaims ? { ...idClaims } : { sub: subject }, provider.groupClaim)
        if (String(claims.sub) !== subject) throw SingleSignOnError.gone()
        return claimsOf(claims, provider.groupClaim, tokens.refresh_token ?? refreshToken)
      } catch (error) {
        if (error instanceof SingleSignOnError) throw error
        if (isUnreachable(error)) throw SingleSignOnError.unavailable()
        throw SingleSignOnError.gone()
      }
    },
  }
}

export type OidcClient = ReturnType<typeof createOidcClient>
