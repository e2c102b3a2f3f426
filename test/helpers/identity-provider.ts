// A real OpenID provider for the single sign-on tests (ADR 033): `oidc-provider` (certified) on a
// free loopback port with keys of its own (its JWKS), an in-memory account store whose claims
// carry groups, consent skipped (a grant is made for our client once the person has signed in) and
// a login page of its own (a real form: the tests and the browser fill it). Dev interactions are off.
// `tamper` rewrites the ID token of the token endpoint's next answers (signed by another key, for
// another audience, expired, another nonce): what a forged or replayed answer looks like.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWTPayload, type CryptoKey } from 'jose'
import Provider from 'oidc-provider'

export interface ProviderAccount {
  sub: string
  password: string
  email: string
  email_verified: boolean
  groups: string[]
  preferred_username?: string
}

/** How the next ID tokens are changed on their way to the relying party. */
export type Tamper = (payload: JWTPayload) => { payload: JWTPayload; key: 'provider' | 'other' }

export interface IdentityProvider {
  issuer: string
  /** The relying party's redirect URI; may be set after the start, before the first request (a server whose port is drawn later). */
  redirectUri: string
  clientId: string
  clientSecret: string
  /** The people who sign in there; change one's groups, or delete one, and the provider says so. */
  accounts: Map<string, ProviderAccount>
  tamper: Tamper | null
  close(): Promise<void>
}

const KID = 'test-signing-key'

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

function readForm(request: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => resolve(new URLSearchParams(body)))
    request.on('error', reject)
  })
}

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider: sign in</title></head><body>
<main><h1>Test identity provider</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="login">Login</label> <input id="login" name="login" autocomplete="username">
<label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Continue</button></form></main></body></html>`
}

/** Starts a provider for a client whose redirect URI is `redirectUri`. */
export async function startIdentityProvider(redirectUri: string, options: { clientId?: string; clientSecret?: string } = {}): Promise<IdentityProvider> {
  const clientId = options.clientId ?? 'linkwell-test'
  const clientSecret = options.clientSecret ?? 'a client secret of the tests'
  const accounts = new Map<string, ProviderAccount>()
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const other = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: KID, alg: 'RS256', use: 'sig' }

  let handler: http.RequestListener = (_request, response) => response.end()
  const server = http.createServer((request, response) => handler(request, response))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const createProvider = () => new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [identityProvider.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['identity provider cookie key of the tests'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'groups'] },
    // Scope claims in the ID token too (the relying party reads groups from it).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    issueRefreshToken: async () => true,
    async findAccount(_context: unknown, sub: string) {
      const account = accounts.get(sub)
      if (!account) return undefined
      return {
        accountId: sub,
        async claims() {
          const current = accounts.get(sub)
          if (!current) return { sub }
          return { sub, email: current.email, email_verified: current.email_verified, groups: [...current.groups], preferred_username: current.preferred_username ?? current.email.split('@')[0] }
        },
      }
    },
    // Consent is skipped: the grant for our client is made as soon as the person has signed in.
    async loadExistingGrant(context: any) {
      const grantId = context.oidc.result?.consent?.grantId ?? context.oidc.session.grantIdFor(context.oidc.client.clientId)
      if (grantId) return context.oidc.provider.Grant.find(grantId)
      if (!context.oidc.session.accountId) return undefined
      const grant = new context.oidc.provider.Grant({ clientId: context.oidc.client.clientId, accountId: context.oidc.session.accountId })
      grant.addOIDCScope('openid email profile')
      grant.addOIDCClaims(['email', 'email_verified', 'preferred_username', 'groups'])
      await grant.save()
      return grant
    },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, RefreshToken: 86_400, Grant: 86_400, Interaction: 600, Session: 86_400 },
  })

  const identityProvider: IdentityProvider = {
    issuer,
    redirectUri,
    clientId,
    clientSecret,
    accounts,
    tamper: null,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }

  /** Re-signs the token endpoint's ID token as `tamper` says. */
  async function tampered(body: string): Promise<string> {
    const answer = JSON.parse(body) as { id_token?: string }
    if (!identityProvider.tamper || !answer.id_token) return body
    const { payload, key } = identityProvider.tamper(decodeJwt(answer.id_token))
    const signer = key === 'provider' ? privateKey : (other.privateKey as CryptoKey)
    answer.id_token = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: KID }).sign(signer)
    return JSON.stringify(answer)
  }

  // Made at the first request, when the redirect URI is known.
  let made: { provider: Provider; callback: http.RequestListener } | undefined
  handler = async (request, response) => {
    if (!made) {
      const created = createProvider()
      made = { provider: created, callback: created.callback() }
    }
    const { provider, callback } = made
    const url = new URL(request.url ?? '/', issuer)
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname)
    try {
      // A browser asks for an icon; none, and no error in its console.
      if (url.pathname === '/favicon.ico') {
        response.writeHead(204).end()
        return
      }
      if (interaction && request.method === 'GET') {
        const details = await provider.interactionDetails(request, response)
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid))
        return
      }
      if (interaction && request.method === 'POST') {
        const form = await readForm(request)
        const account = [...accounts.values()].find((entry) => (entry.email === form.get('login') || entry.sub === form.get('login')) && entry.password === form.get('password'))
        if (!account) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(interaction[1]!, 'Wrong login or password.'))
          return
        }
        await provider.interactionFinished(request, response, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false })
        return
      }
      if (url.pathname === '/token' && identityProvider.tamper) {
        // Keep the provider's answer back, change its ID token, then send it.
        const chunks: Buffer[] = []
        const write = response.write.bind(response)
        const end = response.end.bind(response)
        response.setHeader = ((original) => function (this: http.ServerResponse, name: string, value: number | string | readonly string[]) {
          return name.toLowerCase() === 'content-length' ? this : original.call(this, name, value)
        })(response.setHeader)
        response.write = ((chunk: Buffer | string) => {
          chunks.push(Buffer.from(chunk))
          return true
        }) as typeof response.write
        response.end = ((chunk?: Buffer | string) => {
          if (chunk) chunks.push(Buffer.from(chunk))
          void tampered(Buffer.concat(chunks).toString('utf8')).then((body) => {
            write(body)
            end()
          })
          return response
        }) as typeof response.end
      }
      callback(request, response)
    } catch (error) {
      response.writeHead(500).end(String(error))
    }
  }
  return identityProvider
}

/** A browser's cookies for one origin, enough to walk the provider's pages with fetch. */
export function createCookieJar() {
  const cookies = new Map<string, string>()
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';')
        const at = pair.indexOf('=')
        const name = pair.slice(0, at).trim()
        const value = pair.slice(at + 1).trim()
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') cookies.delete(name)
        else cookies.set(name, value)
      }
    },
  }
}

/**
 * Walks from the provider's authorization URL through its login form to the redirect back to us;
 * answers that redirect's URL (the callback with its code and state). `login` null: stops at the
 * login form and answers its page's address.
 */
export async function signInAtProvider(authorizationUrl: string, login: { login: string; password: string }, jar = createCookieJar()): Promise<URL> {
  let url = new URL(authorizationUrl)
  let method: 'GET' | 'POST' = 'GET'
  let body: string | undefined
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await fetch(url, { method, redirect: 'manual', headers: { cookie: jar.header(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, body })
    jar.take(response)
    const location = response.headers.get('location')
    if (location) {
      const next = new URL(location, url)
      if (next.origin !== url.origin) return next
      url = next
      method = 'GET'
      body = undefined
      continue
    }
    const page = await response.text()
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]
    if (!action || method === 'POST') throw new Error(`the provider answered ${response.status} without a way on: ${page.slice(0, 300)}`)
    url = new URL(action.replace(/&#47;/g, '/'), url)
    method = 'POST'
    body = new URLSearchParams({ login: login.login, password: login.password }).toString()
  }
  throw new Error('too many redirects at the provider')
}
