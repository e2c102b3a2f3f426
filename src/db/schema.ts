// Table types for Kysely. One schema for SQLite and PostgreSQL:
// timestamps are UTC text `YYYY-MM-DD HH:MM:SS`, booleans are integers 0/1, JSON is text
// (docs/adr/001-portable-column-types.md).
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface PlansTable {
  id: Generated<number>
  name: string
  /** Shown as the account's `status` (spec: one value observed, `pro`). */
  code: string
  /** API requests per minute; null: the server default (RATE_LIMIT_PER_MINUTE). */
  apirate: number | null
  /** JSON object: resource name to maximum count; a missing resource is unlimited. */
  limits: string
  is_default: number
  created_at: string
}

export interface AccountsTable {
  id: Generated<number>
  email: string
  username: string
  password_hash: string | null
  avatar: string | null
  plan_id: number
  plan_expires: string | null
  is_admin: number
  is_suspended: number
  created_at: string
  /** 1: every member signs in with a second factor (migration 020c). */
  require_two_factor: Generated<number>
  /** IANA name the workspace's statistics are counted in by default (migration 027); 'UTC' unless set. */
  time_zone: Generated<string>
  /** 1: links created without `trackconversions` track them (migration 036, ADR 034). */
  track_conversions: Generated<number>
  /** The query parameter a tracked click's id is appended as ('lw_id' unless set). */
  click_id_parameter: Generated<string>
  /** 1: visitors' query strings reach destinations of links that do not say otherwise. */
  query_passthrough: Generated<number>
  /** Days a click id can be attributed a lead (90 unless set). */
  attribution_days: Generated<number>
  /** Origins allowed to call the tracking API from a browser, newline-separated ('' none). */
  tracking_origins: Generated<string>
  /** 0: customers' e-mail addresses are left out. */
  customer_emails: Generated<number>
  /** The token of the workspace's Stripe webhook address; null until a signing secret is set. */
  stripe_webhook_token: string | null
  /** The Stripe endpoint's signing secret (sealed when SECRETS_KEY is set), or null. */
  stripe_signing_secret: string | null
}

/** The site's customers (migration 036). */
export interface CustomersTable {
  id: Generated<number>
  account_id: number
  external_id: string
  name: string | null
  email: string | null
  created_at: string
}

export interface LeadsTable {
  id: Generated<number>
  account_id: number
  customer_id: number
  click_id: string
  link_id: number
  event: string
  /** JSON object, or null. */
  metadata: string | null
  clicked_at: string
  created_at: string
}

export interface SalesTable {
  id: Generated<number>
  account_id: number
  customer_id: number | null
  click_id: string | null
  link_id: number | null
  /** Minor units of `currency`; negative for a refund. */
  amount: number
  currency: string
  invoice_id: string
  event: string
  metadata: string | null
  /** api | stripe */
  source: string
  clicked_at: string | null
  created_at: string
}

export interface TrackingRequestsTable {
  account_id: number
  idempotency_key: string
  endpoint: string
  status: number
  /** The JSON answered. */
  response: string
  created_at: string
}

export interface ApiKeysTable {
  id: Generated<number>
  account_id: number
  name: string
  /** SHA-256 of the key, hex; the key itself is never stored. */
  key_hash: string
  /** First characters of the key, to tell keys apart in listings. */
  key_prefix: string
  expires_at: string | null
  created_at: string
  /** Last request made with the key, to the minute (null: never used since migration 006). */
  last_used_at: string | null
  /** Resources the key is limited to, comma-separated; null: every resource (migration 007). */
  scopes: string | null
  /** 1: the key may only read. */
  read_only: Generated<number>
  /** The person who made the key (migration 020b): the key never does more than their role in the account. */
  person_id: number | null
}

/** Someone who signs in to the dashboard (migration 020); belongs to workspaces (accounts) through memberships. */
export interface PeopleTable {
  id: Generated<number>
  username: string
  /** Lower case. */
  email: string
  password_hash: string | null
  created_at: string
  last_sign_in_at: string | null
  /** The TOTP secret (base32) once enrolment is confirmed (migration 020c); null: no second factor. */
  totp_secret: string | null
  /** The secret of an enrolment begun and not yet confirmed with a code. */
  totp_pending_secret: string | null
  totp_enabled_at: string | null
  /** The time step (30 s) of the last code accepted: a code of that step or an earlier one is refused. */
  totp_last_step: number | null
}

/** A single-use recovery code of a person (migration 020c): its SHA-256, and when it was used. */
export interface RecoveryCodesTable {
  id: Generated<number>
  person_id: number
  code_hash: string
  used_at: string | null
}

/** A pending invitation to a workspace (migration 020): a single-use link, deleted when accepted. */
export interface InvitationsTable {
  id: Generated<number>
  account_id: number
  /** Lower case. */
  email: string
  role: string
  /** SHA-256 of the link's token, hex. */
  token_hash: string
  /** The person who invited (null once they are gone). */
  invited_by: number | null
  created_at: string
  expires_at: string
}

/** One person's role in one workspace (the spec's account). */
export interface MembershipsTable {
  account_id: number
  person_id: number
  /** owner | admin | editor | viewer (modules/access/roles.ts) */
  role: string
  created_at: string
}

/** A link mailed to a person (migration 034): a password reset, a sign-up's or an e-mail change's confirmation. */
export interface MailedLinksTable {
  id: Generated<number>
  /** `password_reset`, `signup` or `email_change`. */
  purpose: string
  /** SHA-256 of the link's token, hex. */
  token_hash: string
  /** The person it is for; null for a sign-up. */
  person_id: number | null
  /** Lower case: where the link was sent (an e-mail change's new address). */
  email: string
  /** A sign-up's chosen username (null: made from the address at confirmation). */
  username: string | null
  /** A sign-up's chosen password, scrypt-hashed. */
  password_hash: string | null
  created_at: string
  expires_at: string
  /** Set once, when the link is used. */
  used_at: string | null
}

/** A signed-in browser (the dashboard). */
export interface SessionsTable {
  /** SHA-256 of the cookie's token, hex; the token itself is never stored. */
  id: string
  /** The person's current workspace. */
  account_id: number
  /** Who signed in (migration 020b). */
  person_id: number | null
  created_at: string
  /** Last request made with the session, to the minute. */
  last_seen_at: string
  /** Fixed at sign-in: SESSION_DAYS later. */
  expires_at: string
  /** The browser's User-Agent at sign-in, shortened; '' when none was sent. */
  user_agent: string
  /** The client address at sign-in. */
  ip: string
  /** 1: the password was right and the person's second factor is still to come (migration 020c). */
  awaiting_code: Generated<number>
  /** `password` or `sso`: how the session was opened (migration 035; a workspace may require single sign-on). */
  signed_in_with: Generated<string>
}

export interface DomainsTable {
  id: Generated<number>
  account_id: number
  /** Origin, lower-case, e.g. `https://go.example.com`. */
  domain: string
  /** Host part of `domain`, for Host-header routing. */
  hostname: string
  redirect_root: string | null
  redirect_404: string | null
  created_at: string
  /** The value the TXT record `_linkwell.<hostname>` (or the HTTP challenge) must hold (ADR 031). */
  verification_token: string
  status: Generated<DomainStatus>
  verified_at: string | null
  /** How control was proven. */
  verified_by: 'txt' | 'http' | null
  /** The check schedule counts from here: the claim, or the last check a person asked for. */
  checks_since: string | null
  checked_at: string | null
  /** The last check's finding in words; null after a success. */
  check_error: string | null
  /** When the background check looks again; null: it does not (verified, or given up). */
  next_check_at: string | null
  /** When another workspace proved control of the hostname: this claim is no longer served. */
  released_at: string | null
}

export type DomainStatus = 'pending' | 'verified' | 'failed'

/** One certificate per hostname (migration 033): PUBLIC_URL's host and verified branded domains. */
export interface TlsCertificatesTable {
  hostname: string
  status: CertificateStatus
  /** PEM chain, leaf first. */
  certificate: string | null
  /** PEM key, sealed with SECRETS_KEY when set. */
  private_key: string | null
  expires_at: string | null
  /** The last failed order's reason (the ACME server's words). */
  error: string | null
  failures: Generated<number>
  next_attempt_at: string | null
  claimed_by: string | null
  claimed_until: string | null
  updated_at: string
}

export type CertificateStatus = 'pending' | 'active' | 'failed'

export interface AcmeAccountsTable {
  directory_url: string
  email: string
  private_key: string
  created_at: string
}

export interface AcmeChallengesTable {
  token: string
  key_authorization: string
  expires_at: string
}

export interface OverlaysTable {
  id: Generated<number>
  account_id: number
  type: string
  name: string
  /** JSON: the type's fields. */
  config: string
  created_at: string
}

export interface SplashPagesTable {
  id: Generated<number>
  account_id: number
  name: string
  /** JSON: the page's fields. */
  config: string
  created_at: string
}

export interface CampaignsTable {
  id: Generated<number>
  account_id: number
  name: string
  slug: string | null
  is_public: number
  created_at: string
  /** Rotator visits counted (kept in step by the click recorder). */
  views: Generated<number>
}

export interface ChannelsTable {
  id: Generated<number>
  account_id: number
  name: string
  description: string
  color: string
  starred: number
  created_at: string
}

export interface ChannelItemsTable {
  id: Generated<number>
  account_id: number
  channel_id: number
  /** `links`, `bio` or `qr`. */
  item_type: string
  item_id: number
  created_at: string
}

export interface PixelsTable {
  id: Generated<number>
  account_id: number
  type: string
  name: string
  tag: string
  created_at: string
}

export interface QrCodesTable {
  id: Generated<number>
  account_id: number
  alias: string
  name: string
  type: string
  /** JSON: the `data` the client sent, validated and normalised. */
  data: string
  background: string
  foreground: string
  /** Normalised PNG of the logo, or null. Kept in the database so instances share no disk. */
  logo: Buffer | null
  /** Where the logo came from (URL or upload path), for the API. */
  logo_source: string | null
  scans: number
  created_at: string
  updated_at: string
}

/** A logo uploaded for QR codes (migration 032), kept until no code has used it for a while. */
export interface LogoUploadsTable {
  id: Generated<number>
  account_id: number
  /** `logos/<random>.png`: what a QR code's `logo` names it by. */
  path: string
  /** Normalised PNG. */
  image: Buffer
  created_at: string
  used_at: string
}

export interface LinksTable {
  id: Generated<number>
  account_id: number
  domain_id: number | null
  /** '' for PUBLIC_URL's host, else the branded domain's hostname. */
  host: string
  alias: string
  url: string
  title: string | null
  description: string | null
  password_hash: string | null
  expires_at: string | null
  /** direct | frame | splash | overlay */
  type: string
  splash_id: number | null
  overlay_id: number | null
  campaign_id: number | null
  /** JSON {geo?: [{location, link}], device?: [{device, link}], language?: [{language, link}]} */
  targeting: string
  /** JSON of the link's options (issue 23, modules/links/link-options.ts); '{}' for none. */
  options: Generated<string>
  /** ok | redirected | broken | unknown: what the link checker last found (migration 025). */
  health: Generated<string>
  /** The status the destination last answered; null when none came or not checked. */
  health_status: Generated<number | null>
  health_checked_at: Generated<string | null>
  /** When the checker next looks; '' for never checked (due at once). */
  health_next_at: Generated<string>
  clicks: number
  unique_clicks: number
  created_at: string
  updated_at: string
}

export interface LinkPixelsTable {
  link_id: number
  pixel_id: number
}

export interface BioPagesTable {
  id: Generated<number>
  account_id: number
  alias: string
  name: string
  description: string
  avatar: string | null
  /** JSON array of {title, url}, in display order. */
  blocks: string
  created_at: string
  updated_at: string
}

export interface ClicksTable {
  id: Generated<number>
  account_id: number
  /** link | qr | campaign | bio */
  item_type: string
  item_id: number
  created_at: string
  referrer_host: string | null
  /** No longer written (browser, os and device are); clicks of the first version may have it. */
  user_agent: string | null
  language: string | null
  visitor_hash: string | null
  country: string | null
  browser: string | null
  os: string | null
  device: string | null
  /** Defaults to 0 until enrichment decides. */
  is_unique: Generated<number>
  /** The click id appended to a conversion-tracking link's destination (migration 036); else null. */
  click_id: string | null
}

/** The ClickHouse feeder's place: one row (migration 037, ADR 035). */
export interface ClickhouseFeedTable {
  id: number
  /** The instance holding the lease, until `lease_until` (`YYYY-MM-DD HH:MM:SS.mmm`). */
  holder: string | null
  lease_until: string | null
  last_id: ColumnType<number | string, number, number>
  /** JSON `[[id, first missed (ms)], …]`: ids below `last_id` not committed when it passed them. */
  gaps: Generated<string>
  audit_id: ColumnType<number | string, number, number>
  /** When clicks past CLICK_RETENTION_DAYS were last deleted from ClickHouse. */
  retention_at: string | null
  fed_at: string | null
  fed_clicks: ColumnType<number | string, number, number>
}

/** Click counter of one item, day, dimension and value (see migration 005). */
export interface ClickDaysTable {
  item_type: string
  item_id: number
  /** `YYYY-MM-DD`, UTC */
  day: string
  dimension: string
  value: string
  clicks: number
}

/** All-time click counter of one item, dimension and value. */
export interface ClickTotalsTable {
  item_type: string
  item_id: number
  dimension: string
  value: string
  clicks: number
}

/** How often an account's links (rows, pixels, domain names) have changed; kept by triggers (migration 008). */
export interface LinkListVersionsTable {
  account_id: number
  version: number
}

/** A visitor hash seen for an item on a day (the daily-unique flag). */
export interface ClickVisitorsTable {
  day: string
  item_type: string
  item_id: number
  visitor_hash: string
}

export interface ContactsTable {
  id: Generated<number>
  account_id: number
  overlay_id: number | null
  link_id: number | null
  name: string
  email: string
  message: string
  created_at: string
}

export interface SettingsTable {
  key: string
  value: string
}

/** A named set of UTM parameters of an account, applied to links in the builder (migration 023). */
export interface UtmTemplatesTable {
  id: Generated<number>
  account_id: number
  name: string
  /** JSON {source?, medium?, campaign?, term?, content?} (modules/links/link-options.ts). */
  utm: string
  created_at: string
  updated_at: string
}

/** An account's tag (migration 024): unique per account by `name_key`, the lower-cased name. */
export interface TagsTable {
  id: Generated<number>
  account_id: number
  name: string
  name_key: string
  /** #RRGGBB, or null for the default. */
  color: string | null
  created_at: string
  updated_at: string
}

/** A link's social card (migration 026): the image served to link-preview fetchers. */
export interface LinkCardsTable {
  link_id: number
  /** The image's public name: /card/{token}.jpg. */
  token: string
  /** JPEG, 1200×630. */
  image: Buffer
  created_at: string
}

export interface LinkTagsTable {
  link_id: number
  tag_id: number
}

export interface QrCodeTagsTable {
  qr_code_id: number
  tag_id: number
}

export interface BioPageTagsTable {
  bio_page_id: number
  tag_id: number
}

/** One change made through the API, the dashboard or the CLI (migration 010). */
export interface AuditLogTable {
  id: Generated<number>
  account_id: number
  created_at: string
  /** api | dashboard | cli | system */
  via: string
  person_id: number | null
  key_id: number | null
  address: string | null
  /** `link.created`, `campaign.link_assigned`, … */
  action: string
  /** `link`, `campaign`, … */
  resource: string
  resource_id: number | null
  /** JSON array of field names. */
  fields: string
}

/** An endpoint an account sends events to (migration 022, ADR 018). */
export interface WebhooksTable {
  id: Generated<number>
  account_id: number
  url: string
  description: Generated<string>
  /** JSON array of event types. */
  events: string
  /** `whsec_…`, shown once to the client. */
  secret: string
  enabled: Generated<number>
  failing_since: string | null
  disabled_at: string | null
  disabled_reason: string | null
  created_at: string
}

/** An event, written in the transaction of the change it reports. */
export interface OutboxEventsTable {
  id: Generated<number>
  /** `evt_…`: the payload's id and the `webhook-id` header. */
  event_id: string
  account_id: number
  type: string
  /** The JSON body sent, as signed. */
  payload: string
  created_at: string
  /** Waiting for the event stream (EVENTS_URL): its next attempt; null otherwise (migration 022b). */
  stream_next_at: string | null
  /** When it was published to the event stream. */
  streamed_at: string | null
}

/** One event for one webhook: its state and its last attempt. */
export interface WebhookDeliveriesTable {
  id: Generated<number>
  webhook_id: number
  account_id: number
  event_id: number
  /** pending | delivered | failed */
  status: Generated<string>
  attempts: Generated<number>
  next_attempt_at: string | null
  retry_until: string
  last_attempt_at: string | null
  /** JSON object of the headers of the last attempt. */
  request_headers: string | null
  response_status: number | null
  response_ms: number | null
  response_body: string | null
  error: string | null
  created_at: string
  delivered_at: string | null
}

/** An import (issue 21, migration 021, ADR 021). */
export interface ImportJobsTable {
  id: Generated<number>
  account_id: number
  person_id: number | null
  key_id: number | null
  via: string
  /** csv | bitly | yourls */
  source: string
  source_name: string
  /** server | cli */
  runner: string
  /** JSON of the job's options. */
  options: string
  /** queued | running | done | failed */
  state: string
  /** links | clicks */
  phase: Generated<string>
  cursor: Generated<string>
  total_rows: number | null
  rows_read: Generated<number>
  links_created: Generated<number>
  links_renamed: Generated<number>
  links_existing: Generated<number>
  rows_skipped: Generated<number>
  clicks_imported: Generated<number>
  error: string | null
  lease_until: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

export interface ImportFilesTable {
  job_id: number
  content: string
}

export interface ImportProblemsTable {
  id: Generated<number>
  job_id: number
  line: number | null
  source_key: string | null
  /** skipped | renamed | existing | changed | failed */
  action: string
  reason: string
  /** The address here (a renamed link's new alias). */
  alias: string | null
  /** The address in the source (migration 030; null on older rows). */
  old_alias: string | null
}

export interface ImportLinksTable {
  job_id: number
  source_key: string
  link_id: number
}

export interface Database {
  plans: PlansTable
  accounts: AccountsTable
  customers: CustomersTable
  leads: LeadsTable
  sales: SalesTable
  tracking_requests: TrackingRequestsTable
  api_keys: ApiKeysTable
  people: PeopleTable
  recovery_codes: RecoveryCodesTable
  memberships: MembershipsTable
  invitations: InvitationsTable
  mailed_links: MailedLinksTable
  sessions: SessionsTable
  domains: DomainsTable
  tls_certificates: TlsCertificatesTable
  acme_accounts: AcmeAccountsTable
  acme_challenges: AcmeChallengesTable
  overlays: OverlaysTable
  splash_pages: SplashPagesTable
  campaigns: CampaignsTable
  channels: ChannelsTable
  channel_items: ChannelItemsTable
  pixels: PixelsTable
  qr_codes: QrCodesTable
  logo_uploads: LogoUploadsTable
  links: LinksTable
  link_pixels: LinkPixelsTable
  bio_pages: BioPagesTable
  clicks: ClicksTable
  click_days: ClickDaysTable
  click_totals: ClickTotalsTable
  click_visitors: ClickVisitorsTable
  link_list_versions: LinkListVersionsTable
  contacts: ContactsTable
  settings: SettingsTable
  audit_log: AuditLogTable
  webhooks: WebhooksTable
  outbox_events: OutboxEventsTable
  webhook_deliveries: WebhookDeliveriesTable
  utm_templates: UtmTemplatesTable
  import_jobs: ImportJobsTable
  import_files: ImportFilesTable
  import_problems: ImportProblemsTable
  import_links: ImportLinksTable
  tags: TagsTable
  link_tags: LinkTagsTable
  link_cards: LinkCardsTable
  qr_code_tags: QrCodeTagsTable
  bio_page_tags: BioPageTagsTable
  clickhouse_feed: ClickhouseFeedTable
  sso_providers: SsoProvidersTable
  sso_identities: SsoIdentitiesTable
  sso_sign_in_attempts: SsoSignInAttemptsTable
  sso_workspaces: SsoWorkspacesTable
  sso_group_roles: SsoGroupRolesTable
}

/** An OpenID provider kept in the admin pages (migration 035). */
export interface SsoProvidersTable {
  id: Generated<number>
  /** What `?provider=` names it by: lower-case letters, digits and dashes. */
  name: string
  /** The button's text: "Sign in with <label>". */
  label: string
  issuer: string
  client_id: string
  /** Sealed with SECRETS_KEY when set (core/secret-box.ts). */
  client_secret: string
  /** The ID token or userinfo claim that lists the person's groups. */
  group_claim: string
  /** Comma-separated e-mail domains whose people may be created at first sign-in; '' none. */
  allowed_domains: string
  created_at: string
}

/** A person's account at one provider (migration 035). */
export interface SsoIdentitiesTable {
  id: Generated<number>
  /** The provider's name ('default' for OIDC_ISSUER's). */
  provider: string
  /** The ID token's `sub`. */
  subject: string
  person_id: number
  /** The verified address the provider gave at the last sign-in. */
  email: string
  /** Sealed with SECRETS_KEY when set; null when the provider gave none. */
  refresh_token: string | null
  /** JSON array of the groups last read. */
  groups: string
  /** When the groups were last read (sign-in or recheck). */
  checked_at: string
  created_at: string
}

/** A sign-in on its way to the provider, used once by the callback (migration 035). */
export interface SsoSignInAttemptsTable {
  /** SHA-256 of the `state` sent to the provider (and kept in the browser's cookie). */
  state_hash: string
  provider: string
  nonce: string
  code_verifier: string
  expires_at: string
}

/** A workspace's single sign-on settings (migration 035). */
export interface SsoWorkspacesTable {
  account_id: number
  /** The provider whose groups map to roles here. */
  provider: string
  /** 1: members' passwords do not open this workspace (the instance administrator's excepted). */
  require_sso: number
  updated_at: string
}

/** One group of the workspace's provider and the role it gives (migration 035). */
export interface SsoGroupRolesTable {
  id: Generated<number>
  account_id: number
  group_name: string
  role: string
}

export type PlanRow = Selectable<PlansTable>
export type TagRow = Selectable<TagsTable>
export type AccountRow = Selectable<AccountsTable>
export type NewAccount = Insertable<AccountsTable>
export type ApiKeyRow = Selectable<ApiKeysTable>
export type PersonRow = Selectable<PeopleTable>
export type MembershipRow = Selectable<MembershipsTable>
export type InvitationRow = Selectable<InvitationsTable>
export type MailedLinkRow = Selectable<MailedLinksTable>
export type SessionRow = Selectable<SessionsTable>
export type SsoProviderRow = Selectable<SsoProvidersTable>
export type SsoIdentityRow = Selectable<SsoIdentitiesTable>
export type SsoWorkspaceRow = Selectable<SsoWorkspacesTable>
export type SsoGroupRoleRow = Selectable<SsoGroupRolesTable>
export type DomainRow = Selectable<DomainsTable>
export type OverlayRow = Selectable<OverlaysTable>
export type SplashPageRow = Selectable<SplashPagesTable>
export type CampaignRow = Selectable<CampaignsTable>
export type ChannelRow = Selectable<ChannelsTable>
export type ChannelItemRow = Selectable<ChannelItemsTable>
export type PixelRow = Selectable<PixelsTable>
export type QrCodeRow = Selectable<QrCodesTable>
export type QrCodeUpdate = Updateable<QrCodesTable>
export type LinkRow = Selectable<LinksTable>
export type BioPageRow = Selectable<BioPagesTable>
export type AuditLogRow = Selectable<AuditLogTable>
export type WebhookRow = Selectable<WebhooksTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>
export type UtmTemplateRow = Selectable<UtmTemplatesTable>
export type NewClick = Insertable<ClicksTable>
