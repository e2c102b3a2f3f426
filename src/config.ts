// Configuration: every environment variable Linkwell reads, parsed once at start.
// A bad value stops the process with a message naming the variable.
import { isHttpScheme } from './core/urls.js'
import { parseSecretsKey } from './core/secret-box.js'
import path from 'node:path'
import { isIP } from 'node:net'

export interface Config {
  host: string
  port: number
  /** Base of every generated URL, without a trailing slash. */
  publicUrl: string
  /** `file:PATH` (SQLite) or `postgres://…`. */
  databaseUrl: string
  databasePoolMax: number
  redisUrl: string | undefined
  /** Prefix of every Redis key, so several deployments can share one Redis. */
  redisPrefix: string
  /** Default API requests per minute for plans that set none. */
  rateLimitPerMinute: number
  bootstrapApiKey: string | undefined
  /** Password of the `admin` account created on first start; generated and logged once when absent. */
  bootstrapPassword: string | undefined
  /** Days a dashboard session lasts from sign-in. */
  sessionDays: number
  /** The built dashboard (`vite build` of web/), served at /app/. */
  dashboardDir: string
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Folder a QR `logo` path may point into; nothing outside it is read. */
  uploadDir: string
  /** Addresses a branded domain must resolve to (decisions §6); empty: not checked. */
  serverIps: string[]
  serverCname: string | undefined
  /**
   * How long an instance may reuse a key's account lookup. At most one second, so a revoked key
   * or a suspended account stops working everywhere within a second, whoever changed it.
   */
  keyCacheMs: number
  /** The largest file `POST /api/import` takes, in bytes (IMPORT_MAX_BYTES). */
  importMaxBytes: number
  /** The most rows an imported file may have, its header not counted (IMPORT_MAX_ROWS): a larger one is refused (400) before it is a job. */
  importMaxRows: number
  /**
   * Addresses or CIDR ranges of reverse proxies whose X-Forwarded-For is believed (visitor
   * country, visitor hashes, per-address limits); empty: the socket's address is the client's.
   */
  trustedProxies: string[]
  /** Status of a short link's redirect: 302 (default; every visit reaches us) or 301. */
  redirectStatus: 301 | 302
  /** Largest accepted request body, in bytes. */
  bodyLimit: number
  /** Origins whose pages may call the API from a browser (CORS); empty: none. */
  corsOrigins: string[]
  /** Raw clicks older than this many days may be pruned (`linkwell clicks prune`); null: kept forever. */
  clickRetentionDays: number | null
  /** The columnar store's DuckDB file (ANALYTICS_STORE, ADR 022): the served process answers statistics from it; null: from the raw clicks. */
  analyticsStore: string | null
  /** ClickHouse (ANALYTICS_STORE=clickhouse://…, ADR 035): every instance answers statistics from it; null: not used. */
  clickhouse: ClickhouseTarget | null
  /** What ANALYTICS_STORE said: `off` keeps the raw clicks even where the DuckDB store is the default (see servedConfig). */
  analyticsSetting: 'unset' | 'off' | 'set'
  /** `smtp://` or `smtps://` server that invitations are mailed through; absent: the link is only shown. */
  smtpUrl: string | undefined
  /** The From of mails sent (SMTP_FROM); by default `Linkwell <linkwell@PUBLIC_URL's host>`. */
  smtpFrom: string
  /** Audit log entries older than this many days are pruned by `linkwell audit prune` (default 365). */
  auditRetentionDays: number
  /** Whether GET /metrics is served (METRICS=off turns it off), and the Bearer token it asks for (null: none). */
  metrics: { enabled: boolean; token: string | null }
  /** SECRETS_KEY: the 32-byte key TOTP and webhook secrets are sealed with at rest (ADR 025); null: stored as they are. */
  secretsKey: Buffer | null
  /**
   * `error` of list answers: `string` ("0", as the spec says) or `integer` (0), for clients that
   * test `error` for truthiness (ADR 013).
   */
  listErrorFormat: 'string' | 'integer'
  /** Webhooks may reach private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE=1; tests, closed networks). */
  webhookAllowPrivate: boolean
  /** `nats://host:4222`: every event is also published to NATS JetStream (ADR 018); undefined: not. */
  eventsUrl: string | undefined
  /**
   * The broken-link checker (ADR 026): on unless LINK_CHECK=off; LINK_CHECK_ALLOW_PRIVATE=1 lets it
   * look at private and loopback addresses (tests); each link at most every `intervalHours`; with
   * nothing due, the checker asks again for due links after `pollSeconds` (a new link waits that long for its first look).
   */
  linkCheck: { enabled: boolean; allowPrivate: boolean; intervalHours: number; pollSeconds: number }
  /**
   * Who creates workspaces (ADR 029): the instance's administrators only (WORKSPACE_CREATION=admins,
   * the default) or anyone signed in (`anyone`), who then owns at most `limit` workspaces
   * (WORKSPACE_CREATION_LIMIT): each is a fresh plan quota and rate-limit bucket.
   */
  workspaceCreation: { who: 'admins' | 'anyone'; limit: number }
  /** Who may make an account here (SIGNUP, SIGNUP_DOMAINS; issue 38, ADR 036): nobody, anyone, or addresses at these domains. */
  signup: { mode: 'closed' | 'open' | 'domains'; domains: string[] }
  /**
   * Certificates from an ACME server (ACME_EMAIL turns it on; ACME_DIRECTORY_URL, default Let's
   * Encrypt's production directory): the server then also listens on `httpPort` and `httpsPort`.
   * Renewals and failed orders are looked at every `checkSeconds` (ACME_CHECK_SECONDS, 300); a
   * domain just verified is ordered at once.
   */
  acme: { email: string; directoryUrl: string; checkSeconds: number } | null
  /** HTTP_PORT (80): short links, ACME and domain challenges; the dashboard and API redirect to https there. Also the port a domain's HTTP proof is fetched on. */
  httpPort: number
  /** HTTPS_PORT (443): TLS with the certificate of the name asked for (SNI). */
  httpsPort: number
  /** HSTS=on: Strict-Transport-Security on the main host's https answers. */
  hsts: boolean
  /** DNS_SERVERS: the servers (`address` or `address:port`) of every look-up Linkwell makes itself; empty: the system's. */
  dnsServers: string[]
  /**
   * How a workspace proves control of a branded domain (ADR 031): the TXT record always; with
   * `allowHttp` (DOMAIN_VERIFICATION=txt-or-http, the default) also the pointing check and the
   * challenge fetched over the domain when no other workspace claims it. Due claims are looked
   * for every `pollSeconds` (DOMAIN_CHECK_POLL_SECONDS).
   */
  domainVerification: { allowHttp: boolean; pollSeconds: number }
  /** Single sign-on with OpenID Connect (issue 38, ADR 033). */
  oidc: OidcConfig
}

/** OIDC_*: the instance's own provider (besides those kept in the admin pages) and the recheck. */
export interface OidcConfig {
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (and OIDC_GROUP_CLAIM, default `groups`; OIDC_LABEL, the button's text); null without OIDC_ISSUER. */
  provider: { issuer: string; clientId: string; clientSecret: string; groupClaim: string; allowedDomains: string[]; label: string } | null
  /** OIDC_RECHECK: how long a single sign-on person's groups are trusted before they are read again (default one hour). */
  recheckSeconds: number
  /**
   * OIDC_ALLOW_HTTP=1: issuers on plain http are accepted when their host is a loopback address
   * (tests, a provider on the same machine); never for another host.
   */
  allowHttpLoopback: boolean
}

/** Where ClickHouse answers (its HTTP interface) and the database that holds Linkwell's tables. */
export interface ClickhouseTarget {
  /** `http://host:port` (the `clickhouse://` URL's host and port; `clickhouses://` is https). */
  url: string
  database: string
  username: string
  password: string
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`)
    this.name = 'ConfigError'
  }
}

export type Env = Record<string, string | undefined>

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`)
  const value = Number(raw.trim())
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

function readPublicUrl(env: Env, port: number): string {
  const raw = env.PUBLIC_URL
  if (raw === undefined || raw === '') return `http://localhost:${port}`
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('PUBLIC_URL', `must be an absolute http(s) URL, got "${raw}"`)
  }
  if (!isHttpScheme(url)) {
    throw new ConfigError('PUBLIC_URL', `must use http or https, got "${raw}"`)
  }
  if (url.search || url.hash) throw new ConfigError('PUBLIC_URL', 'must not carry a query or fragment')
  return url.toString().replace(/\/+$/, '')
}

function readDatabaseUrl(env: Env): string {
  const raw = env.DATABASE_URL
  if (raw === undefined || raw === '') return 'file:./data/linkwell.db'
  if (raw.startsWith('file:') && raw.length > 'file:'.length) return raw
  if (/^postgres(ql)?:\/\//.test(raw)) return raw
  throw new ConfigError('DATABASE_URL', 'must be file:PATH (SQLite) or postgres://user:pass@host:port/db')
}

function readRedisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL
  if (raw === undefined || raw === '') return undefined
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://')
  return raw
}

function readSmtpUrl(env: Env): string | undefined {
  const raw = env.SMTP_URL
  if (raw === undefined || raw === '') return undefined
  if (!/^smtps?:\/\/[^\s]+$/.test(raw)) throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://')
  return raw
}

function readServerIps(env: Env): string[] {
  const raw = env.SERVER_IPS
  if (raw === undefined || raw.trim() === '') return []
  const ips = raw.split(',').map((ip) => ip.trim()).filter(Boolean)
  for (const ip of ips) {
    if (isIP(ip) === 0) throw new ConfigError('SERVER_IPS', `must be a comma-separated list of IP addresses, "${ip}" is not one`)
  }
  return ips
}

function readRedirectStatus(env: Env): 301 | 302 {
  const raw = env.REDIRECT_STATUS
  if (raw === undefined || raw === '' || raw === '302') return 302
  if (raw === '301') return 301
  throw new ConfigError('REDIRECT_STATUS', `must be 301 or 302, got "${raw}"`)
}

function readMetrics(env: Env): Config['metrics'] {
  const raw = (env.METRICS ?? '').trim().toLowerCase()
  if (raw !== '' && raw !== 'on' && raw !== 'off') throw new ConfigError('METRICS', `must be on or off, got "${env.METRICS}"`)
  const token = (env.METRICS_TOKEN ?? '').trim()
  if (token !== '' && token.length < 16) throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters (it guards what the server tells about itself)')
  return { enabled: raw !== 'off', token: token === '' ? null : token }
}

function readSecretsKey(env: Env): Buffer | null {
  const raw = env.SECRETS_KEY ?? ''
  if (raw.trim() === '') return null
  const key = parseSecretsKey(raw)
  if (!key) throw new ConfigError('SECRETS_KEY', 'must be 32 random bytes written as 64 hex digits or as base64 (e.g. `openssl rand -hex 32`)')
  return key
}

function readTrustedProxies(env: Env): string[] {
  const raw = env.TRUSTED_PROXIES
  if (raw === undefined || raw.trim() === '') return []
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean)
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/')
    const family = isIP(address)
    const maxPrefix = family === 6 ? 128 : 32
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix)
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError('TRUSTED_PROXIES', `must be a comma-separated list of IP addresses or CIDR ranges, "${entry}" is not one`)
    }
  }
  return entries
}

function readCorsOrigins(env: Env): string[] {
  const raw = env.CORS_ORIGINS
  if (raw === undefined || raw.trim() === '') return []
  return raw.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    let origin: string | undefined
    try {
      const url = new URL(entry)
      if (isHttpScheme(url) && url.origin === entry.replace(/\/$/, '').toLowerCase()) origin = url.origin
    } catch {
      origin = undefined
    }
    if (!origin) throw new ConfigError('CORS_ORIGINS', `must be a comma-separated list of origins like https://app.example.com, "${entry}" is not one`)
    return origin
  })
}

function readListErrorFormat(env: Env): Config['listErrorFormat'] {
  const raw = env.LIST_ERROR_FORMAT
  if (raw === undefined || raw === '' || raw === 'string') return 'string'
  if (raw === 'integer') return 'integer'
  throw new ConfigError('LIST_ERROR_FORMAT', `must be string or integer, got "${raw}"`)
}

function readFlag(env: Env, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false
  if (raw === '1' || raw === 'true') return true
  throw new ConfigError(name, `must be 1 or 0, got "${env[name]}"`)
}

function readLinkCheck(env: Env): Config['linkCheck'] {
  const raw = (env.LINK_CHECK ?? '').trim().toLowerCase()
  if (raw !== '' && raw !== 'on' && raw !== 'off') throw new ConfigError('LINK_CHECK', `must be on or off, got "${env.LINK_CHECK}"`)
  return {
    enabled: raw !== 'off',
    allowPrivate: readFlag(env, 'LINK_CHECK_ALLOW_PRIVATE'),
    intervalHours: readInteger(env, 'LINK_CHECK_INTERVAL_HOURS', 6, 1, 24 * 365),
    pollSeconds: readInteger(env, 'LINK_CHECK_POLL_SECONDS', 30, 1, 3600),
  }
}

function readWorkspaceCreation(env: Env): Config['workspaceCreation'] {
  const raw = (env.WORKSPACE_CREATION ?? '').trim().toLowerCase()
  if (raw !== '' && raw !== 'admins' && raw !== 'anyone') throw new ConfigError('WORKSPACE_CREATION', `must be admins or anyone, got "${env.WORKSPACE_CREATION}"`)
  return { who: raw === 'anyone' ? 'anyone' : 'admins', limit: readInteger(env, 'WORKSPACE_CREATION_LIMIT', 3, 1, 1000) }
}

/** ANALYTICS_STORE: unset, `off`, `clickhouse://user:password@host:port/database`, or a DuckDB file. */
function readAnalyticsStore(env: Env): Pick<Config, 'analyticsStore' | 'clickhouse' | 'analyticsSetting'> {
  const raw = env.ANALYTICS_STORE?.trim()
  if (!raw) return { analyticsStore: null, clickhouse: null, analyticsSetting: 'unset' }
  if (raw.toLowerCase() === 'off') return { analyticsStore: null, clickhouse: null, analyticsSetting: 'off' }
  if (!/^clickhouses?:\/\//i.test(raw)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) throw new ConfigError('ANALYTICS_STORE', 'must be off, a DuckDB file path, or clickhouse://[user:password@]host:port/database')
    return { analyticsStore: path.resolve(raw), clickhouse: null, analyticsSetting: 'set' }
  }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('ANALYTICS_STORE', 'must be clickhouse://[user:password@]host:port/database (the HTTP port)')
  }
  const database = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''))
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(database)) throw new ConfigError('ANALYTICS_STORE', 'must name the ClickHouse database (letters, digits, _): clickhouse://host:8123/linkwell')
  if (!url.hostname || !url.port) throw new ConfigError('ANALYTICS_STORE', 'must give the ClickHouse host and its HTTP port: clickhouse://host:8123/linkwell')
  const scheme = url.protocol.toLowerCase() === 'clickhouses:' ? 'https' : 'http'
  return {
    analyticsStore: null,
    clickhouse: { url: `${scheme}://${url.host}`, database, username: decodeURIComponent(url.username) || 'default', password: decodeURIComponent(url.password) },
    analyticsSetting: 'set',
  }
}

/**
 * The configuration of the served process (main.ts): on SQLite in a file, with ANALYTICS_STORE
 * unset, statistics come from the DuckDB store `analytics.duckdb` beside the database file (issue
 * 40); ANALYTICS_STORE=off keeps the raw clicks. Apps built otherwise (tests, the CLI) keep the
 * configuration as read. Answers the configuration and why statistics come from where they do.
 */
export function servedConfig(config: Config): { config: Config; analytics: { engine: 'raw' | 'duckdb' | 'clickhouse'; reason: string } } {
  if (config.clickhouse) return { config, analytics: { engine: 'clickhouse', reason: `ANALYTICS_STORE names ClickHouse at ${config.clickhouse.url}/${config.clickhouse.database}` } }
  if (config.analyticsStore) return { config, analytics: { engine: 'duckdb', reason: `ANALYTICS_STORE names the DuckDB file ${config.analyticsStore}` } }
  if (config.analyticsSetting === 'off') return { config, analytics: { engine: 'raw', reason: 'ANALYTICS_STORE=off' } }
  const file = config.databaseUrl.startsWith('file:') ? config.databaseUrl.slice('file:'.length) : null
  if (file && file !== ':memory:') {
    const analyticsStore = path.join(path.dirname(path.resolve(file)), 'analytics.duckdb')
    return { config: { ...config, analyticsStore }, analytics: { engine: 'duckdb', reason: `the default for one process on SQLite: ${analyticsStore} beside the database (ANALYTICS_STORE=off to read the raw clicks)` } }
  }
  if (file) return { config, analytics: { engine: 'raw', reason: 'an in-memory SQLite database' } }
  return { config, analytics: { engine: 'raw', reason: 'PostgreSQL with ANALYTICS_STORE unset: several instances share the raw clicks (ANALYTICS_STORE=clickhouse://… answers from ClickHouse)' } }
}

function readSignup(env: Env, smtpUrl: string | undefined): Config['signup'] {
  const raw = (env.SIGNUP ?? '').trim().toLowerCase()
  if (raw !== '' && raw !== 'closed' && raw !== 'open' && raw !== 'domains') throw new ConfigError('SIGNUP', `must be closed, open or domains, got "${env.SIGNUP}"`)
  const mode = raw === '' ? 'closed' : raw
  const domains = (env.SIGNUP_DOMAINS ?? '').split(',').map((domain) => domain.trim().toLowerCase().replace(/^@/, '')).filter(Boolean)
  for (const domain of domains) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) throw new ConfigError('SIGNUP_DOMAINS', `must be a comma-separated list of domains (example.com), "${domain}" is not one`)
  }
  if (mode === 'domains' && domains.length === 0) throw new ConfigError('SIGNUP_DOMAINS', 'must name at least one domain when SIGNUP=domains')
  // A sign-up is confirmed by a mailed link: without a mail server nobody could finish one.
  if (mode !== 'closed' && smtpUrl === undefined) throw new ConfigError('SIGNUP', `=${mode} needs a mail server (SMTP_URL): sign-ups are confirmed by a mailed link`)
  return { mode, domains: mode === 'domains' ? domains : [] }
}

function readEventsUrl(env: Env): string | undefined {
  const raw = env.EVENTS_URL?.trim()
  if (raw === undefined || raw === '') return undefined
  if (!/^(nats|tls):\/\/[^\s/]+$/.test(raw)) throw new ConfigError('EVENTS_URL', `must be nats://host:port (or tls://host:port), got "${raw}"`)
  return raw
}

function readAcme(env: Env): Config['acme'] {
  const email = env.ACME_EMAIL?.trim()
  if (!email) return null
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ConfigError('ACME_EMAIL', `must be an e-mail address (the ACME server writes to it about expiring certificates), got "${email}"`)
  const raw = env.ACME_DIRECTORY_URL?.trim() || 'https://acme-v02.api.letsencrypt.org/directory'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('ACME_DIRECTORY_URL', `must be the https address of an ACME directory, got "${raw}"`)
  }
  if (url.protocol !== 'https:') throw new ConfigError('ACME_DIRECTORY_URL', `must be an https address (RFC 8555), got "${raw}"`)
  return { email, directoryUrl: url.toString(), checkSeconds: readInteger(env, 'ACME_CHECK_SECONDS', 300, 1, 86_400) }
}

function readOnOff(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase()
  if (raw !== '' && raw !== 'on' && raw !== 'off') throw new ConfigError(name, `must be on or off, got "${env[name]}"`)
  return raw === 'on'
}

function readDnsServers(env: Env): string[] {
  const raw = env.DNS_SERVERS
  if (raw === undefined || raw.trim() === '') return []
  return raw.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    // `address`, `address:port`, `[v6]` or `[v6]:port`: what the resolver takes (an address, never a name).
    const match = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(entry) ?? [entry, entry, undefined]
    const [, address = '', port] = match
    if (isIP(address) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      throw new ConfigError('DNS_SERVERS', `must be a comma-separated list of DNS server addresses (address or address:port), "${entry}" is not one`)
    }
    return entry
  })
}

function readDomainVerification(env: Env): Config['domainVerification'] {
  const raw = (env.DOMAIN_VERIFICATION ?? '').trim().toLowerCase()
  if (raw !== '' && raw !== 'txt' && raw !== 'txt-or-http') throw new ConfigError('DOMAIN_VERIFICATION', `must be txt or txt-or-http, got "${env.DOMAIN_VERIFICATION}"`)
  return { allowHttp: raw !== 'txt', pollSeconds: readInteger(env, 'DOMAIN_CHECK_POLL_SECONDS', 30, 1, 3600) }
}

/** `3600`, `3600s`, `60m`, `1h`: seconds. */
function readDuration(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return fallback
  const match = /^(\d+)\s*(s|m|h)?$/.exec(raw)
  if (!match) throw new ConfigError(name, `must be a duration such as 3600, 90s, 15m or 1h, got "${env[name]}"`)
  const value = Number(match[1]) * (match[2] === 'h' ? 3600 : match[2] === 'm' ? 60 : 1)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max} seconds, got ${value}`)
  return value
}

/** A comma-separated list of e-mail domains, lower-case, without a leading `@`. */
export function readDomainList(text: string): string[] {
  return text.split(',').map((entry) => entry.trim().toLowerCase().replace(/^@/, '')).filter((entry) => entry !== '')
}

function readOidc(env: Env): OidcConfig {
  const issuer = env.OIDC_ISSUER?.trim() ?? ''
  const recheckSeconds = readDuration(env, 'OIDC_RECHECK', 3600, 60, 30 * 86_400)
  const allowHttpLoopback = readFlag(env, 'OIDC_ALLOW_HTTP')
  if (issuer === '') return { provider: null, recheckSeconds, allowHttpLoopback }
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    throw new ConfigError('OIDC_ISSUER', `must be the provider's issuer URL, got "${issuer}"`)
  }
  if (!isHttpScheme(url)) throw new ConfigError('OIDC_ISSUER', `must be an https URL, got "${issuer}"`)
  const clientId = env.OIDC_CLIENT_ID?.trim() ?? ''
  const clientSecret = env.OIDC_CLIENT_SECRET ?? ''
  if (clientId === '') throw new ConfigError('OIDC_CLIENT_ID', 'must be set with OIDC_ISSUER')
  if (clientSecret === '') throw new ConfigError('OIDC_CLIENT_SECRET', 'must be set with OIDC_ISSUER')
  const groupClaim = env.OIDC_GROUP_CLAIM?.trim() || 'groups'
  // The button says "Sign in with <OIDC_LABEL>"; by default the issuer's host.
  const label = env.OIDC_LABEL?.trim() || url.host
  return { provider: { issuer, clientId, clientSecret, groupClaim, allowedDomains: readDomainList(env.OIDC_ALLOWED_DOMAINS ?? ''), label }, recheckSeconds, allowHttpLoopback }
}

/** Parses the environment into a typed Config; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = readInteger(env, 'PORT', 3000, 0, 65535)
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel']
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`)
  }
  const bootstrapApiKey = env.LINKWELL_BOOTSTRAP_API_KEY || undefined
  if (bootstrapApiKey !== undefined && !/^[A-Za-z0-9_-]{32,128}$/.test(bootstrapApiKey)) {
    throw new ConfigError('LINKWELL_BOOTSTRAP_API_KEY', 'must be 32 to 128 URL-safe characters (A-Z, a-z, 0-9, _ and -)')
  }
  const bootstrapPassword = env.LINKWELL_BOOTSTRAP_PASSWORD || undefined
  // The account service's password rule (8 to 256 characters), checked here so a bad value stops the start.
  if (bootstrapPassword !== undefined && (bootstrapPassword.length < 8 || bootstrapPassword.length > 256)) {
    throw new ConfigError('LINKWELL_BOOTSTRAP_PASSWORD', 'must be 8 to 256 characters')
  }
  const serverCname = env.SERVER_CNAME?.trim().toLowerCase().replace(/\.$/, '') || undefined
  return {
    host: env.HOST || '0.0.0.0',
    port,
    publicUrl: readPublicUrl(env, port),
    databaseUrl: readDatabaseUrl(env),
    databasePoolMax: readInteger(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    redisUrl: readRedisUrl(env),
    redisPrefix: env.REDIS_PREFIX || 'linkwell:',
    rateLimitPerMinute: readInteger(env, 'RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    bootstrapApiKey,
    bootstrapPassword,
    sessionDays: readInteger(env, 'SESSION_DAYS', 14, 1, 365),
    dashboardDir: path.resolve(env.DASHBOARD_DIR || './dist/web'),
    logLevel,
    uploadDir: path.resolve(env.UPLOAD_DIR || './data/uploads'),
    serverIps: readServerIps(env),
    serverCname,
    trustedProxies: readTrustedProxies(env),
    redirectStatus: readRedirectStatus(env),
    keyCacheMs: readInteger(env, 'KEY_CACHE_MS', 1000, 0, 1000),
    importMaxBytes: readInteger(env, 'IMPORT_MAX_BYTES', 20 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    importMaxRows: readInteger(env, 'IMPORT_MAX_ROWS', 100_000, 1, 10_000_000),
    bodyLimit: readInteger(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 50 * 1_048_576),
    corsOrigins: readCorsOrigins(env),
    clickRetentionDays: env.CLICK_RETENTION_DAYS ? readInteger(env, 'CLICK_RETENTION_DAYS', 0, 1, 36_500) : null,
    ...readAnalyticsStore(env),
    smtpUrl: readSmtpUrl(env),
    smtpFrom: env.SMTP_FROM || `Linkwell <linkwell@${new URL(readPublicUrl(env, port)).hostname}>`,
    auditRetentionDays: readInteger(env, 'AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    metrics: readMetrics(env),
    secretsKey: readSecretsKey(env),
    listErrorFormat: readListErrorFormat(env),
    webhookAllowPrivate: readFlag(env, 'WEBHOOK_ALLOW_PRIVATE'),
    eventsUrl: readEventsUrl(env),
    linkCheck: readLinkCheck(env),
    workspaceCreation: readWorkspaceCreation(env),
    signup: readSignup(env, readSmtpUrl(env)),
    acme: readAcme(env),
    httpPort: readInteger(env, 'HTTP_PORT', 80, 0, 65535),
    httpsPort: readInteger(env, 'HTTPS_PORT', 443, 0, 65535),
    hsts: readOnOff(env, 'HSTS'),
    dnsServers: readDnsServers(env),
    domainVerification: readDomainVerification(env),
    oidc: readOidc(env),
  }
}
