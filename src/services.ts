// The composition root: every repository and service is built here, once, from the configuration,
// the database and (when configured) Redis. The HTTP app, main.ts and the CLI all start from
// `createServices`; route modules receive what it builds and do no wiring of their own.
import type { Redis } from 'ioredis'
import type { BaseLogger } from 'pino'
import { createClickRecorder, type ClickRecorder } from './analytics/click-recorder.js'
import type { Config } from './config.js'
import { createLocalInvalidationBus, type InvalidationBus } from './core/invalidation.js'
import type { DatabaseHandle } from './db/database.js'
import { bindable } from './db/transactions.js'
import { createChangeJournal } from './modules/changes/change-journal.js'
import { createAccountRepository } from './modules/accounts/account.repository.js'
import { createAccountService } from './modules/accounts/account.service.js'
import { createConversionRepository } from './modules/conversions/conversion.repository.js'
import { createConversionService } from './modules/conversions/conversion.service.js'
import { createStripeReceiver } from './modules/conversions/stripe-receiver.js'
import { createApiKeyRepository } from './modules/api-keys/api-key.repository.js'
import { createApiKeyService } from './modules/api-keys/api-key.service.js'
import { createPeopleRepository } from './modules/accounts/people.repository.js'
import { createPlanUsageService } from './modules/plans/plan-limits.js'
import { createSessionRepository } from './modules/accounts/session.repository.js'
import { createSessionService } from './modules/accounts/session.service.js'
import { createTwoFactorRepository } from './modules/accounts/two-factor.repository.js'
import { createSecretBox } from './core/secret-box.js'
import { createTwoFactorService } from './modules/accounts/two-factor.service.js'
import { createMemberService } from './modules/members/member.service.js'
import { createWorkspaceCreationService } from './modules/accounts/workspace-creation.service.js'
import { createInvitationRepository } from './modules/members/invitation.repository.js'
import { createInvitationService, type InvitationSender } from './modules/members/invitation.service.js'
import { createInvitationMailer } from './modules/members/invitation-mail.js'
import { createMailer } from './modules/mail/mailer.js'
import { createMailedLinkRepository } from './modules/accounts/mailed-link.repository.js'
import { createPasswordResetService } from './modules/accounts/password-reset.service.js'
import { createSignUpService } from './modules/accounts/sign-up.service.js'
import { createEmailChangeService, FRESH_SIGN_IN_MINUTES } from './modules/accounts/email-change.service.js'
import type { SendMail } from './modules/accounts/account-mail.js'
import { createPlanRepository } from './modules/plans/plan.repository.js'
import { createPlanService } from './modules/plans/plan.service.js'
import { createUserAdministration } from './modules/admin/user-admin.service.js'
import type { AliasGenerator } from './modules/aliases/alias-generator.js'
import { createAliasRepository } from './modules/aliases/alias.repository.js'
import { createAliasService } from './modules/aliases/alias.service.js'
import { createBioPageItemSource } from './modules/bio-pages/bio-page.item-source.js'
import { createBioPageRepository } from './modules/bio-pages/bio-page.repository.js'
import { createBioPageService } from './modules/bio-pages/bio-page.service.js'
import { createCampaignPagesRepository } from './modules/campaigns/campaign-pages.repository.js'
import { createCampaignPagesService } from './modules/campaigns/campaign-pages.service.js'
import { createCampaignRepository } from './modules/campaigns/campaign.repository.js'
import { createCampaignService } from './modules/campaigns/campaign.service.js'
import { createChannelItemRepository } from './modules/channels/channel-items.repository.js'
import { createChannelRepository } from './modules/channels/channel.repository.js'
import { createChannelService } from './modules/channels/channel.service.js'
import { createDnsClient, type DnsClient, type HostResolver } from './modules/domains/domain-dns.js'
import { createDomainVerifier } from './modules/domains/domain-verifier.js'
import { certifiableHostname } from './modules/certificates/certifiable.js'
import { createCertificateManager } from './modules/certificates/certificate-manager.js'
import { createCertificateRepository } from './modules/certificates/certificate.repository.js'
import { createCertificateStore } from './modules/certificates/certificate-store.js'
import { createDomainRepository } from './modules/domains/domain.repository.js'
import { createDomainService } from './modules/domains/domain.service.js'
import { createShortLinkItemSource } from './modules/links/link.item-source.js'
import { createLinkRepository } from './modules/links/link.repository.js'
import { createLinkService } from './modules/links/link.service.js'
import { createLinkCardRepository } from './modules/links/link-card.repository.js'
import { createLinkBatchWriter } from './modules/links/link-batch.js'
import { createLinkCardService } from './modules/links/link-card.service.js'
import { createLinkChanges } from './modules/links/link-changes.js'
import { createLinkCreation } from './modules/links/link-creation.js'
import { createImportRepository } from './modules/imports/import.repository.js'
import { createImportService, type ImportServiceOptions } from './modules/imports/import.service.js'
import { createImportWorker } from './modules/imports/import-worker.js'
import { createContactRepository } from './modules/overlays/contact.repository.js'
import { createOverlayRepository } from './modules/overlays/overlay.repository.js'
import { createOverlayService } from './modules/overlays/overlay.service.js'
import { createPixelRepository } from './modules/pixels/pixel.repository.js'
import { createPixelService } from './modules/pixels/pixel.service.js'
import { createAuditRepository } from './modules/audit/audit.repository.js'
import { createAuditService } from './modules/audit/audit.service.js'
import { createExportRepository } from './modules/exports/export.repository.js'
import { createExportService } from './modules/exports/export.service.js'
import { createLogoLoader, type LogoLoader } from './modules/qr-codes/logo-source.js'
import { createQrCodeItemSource } from './modules/qr-codes/qr-code.item-source.js'
import { createQrCodeRepository } from './modules/qr-codes/qr-code.repository.js'
import { createQrCodeService } from './modules/qr-codes/qr-code.service.js'
import { createLogoUploadService } from './modules/qr-codes/logo-upload.service.js'
import { createLogoUploadRepository } from './modules/qr-codes/logo-upload.repository.js'
import { createQrImageService } from './modules/qr-codes/qr-image.service.js'
import { createAliasResolverRepository } from './modules/visits/alias-resolver.repository.js'
import { createAliasResolver } from './modules/visits/alias-resolver.js'
import { createHostRouter } from './modules/visits/host-router.js'
import { createPasswordUpgrade } from './modules/visits/link-password.js'
import { createVisitService } from './modules/visits/visit.service.js'
import { createUtmTemplateRepository } from './modules/utm-templates/utm-template.repository.js'
import { createUtmTemplateService } from './modules/utm-templates/utm-template.service.js'
import { createTagRepository } from './modules/tags/tag.repository.js'
import { createTagService } from './modules/tags/tag.service.js'
import { createSplashPageRepository } from './modules/splash-pages/splash-page.repository.js'
import { createSplashPageService } from './modules/splash-pages/splash-page.service.js'
import { createStatisticsRepository } from './modules/statistics/statistics.repository.js'
import { createStatisticsService } from './modules/statistics/statistics.service.js'
import { createConversionFiguresRepository } from './modules/statistics/conversion-figures.repository.js'
import { createConversionReports } from './modules/statistics/conversion-reports.service.js'
import { createStatisticsEngines } from './modules/statistics/statistics-engines.js'
import { createRawClickRepository } from './modules/statistics/raw-click.repository.js'
import { createRedisInvalidationBus } from './redis/invalidation-bus.js'
import { createLinkChecker } from './modules/link-health/link-checker.js'
import type { HostResolver as AddressResolver } from './core/address-policy.js'
import { createDeliveryWorker, type DeliveryWorkerOptions } from './modules/webhooks/delivery-worker.js'
import { createEventOutbox } from './modules/webhooks/event-outbox.js'
import { createEventOutboxRepository } from './modules/webhooks/event-outbox.repository.js'
import { createEventStream, type EventStreamOptions } from './modules/webhooks/event-stream.js'
import { createWebhookRepository } from './modules/webhooks/webhook.repository.js'
import { createWebhookDeliveryRepository } from './modules/webhooks/webhook-delivery.repository.js'
import { createWebhookSender } from './modules/webhooks/webhook-sender.js'
import { createWebhookService } from './modules/webhooks/webhook.service.js'
import { createSsoRepository } from './modules/single-sign-on/sso.repository.js'
import { createSsoProviders } from './modules/single-sign-on/sso-providers.js'
import { createOidcClient } from './modules/single-sign-on/oidc-client.js'
import { createSingleSignOnService } from './modules/single-sign-on/sso.service.js'
import { createSsoSettingsService } from './modules/single-sign-on/sso-settings.service.js'
import { createSsoRecheck } from './modules/single-sign-on/sso-recheck.js'

/** Where services report what no request sees (visits lost, a store that went away). */
export type ServiceLog = Pick<BaseLogger, 'error' | 'warn' | 'info'>

export interface ServiceDependencies {
  config: Config
  database: DatabaseHandle
  /** Shares cache invalidation (and, in the HTTP app, rate limits) across instances. */
  redis?: Redis
  log: ServiceLog
  /** Replaces the click recorder (tests use small batches or a fake clock). */
  clickRecorder?: ClickRecorder
  /** Replaces how QR logos are fetched and read (tests). */
  loadLogo?: LogoLoader
  /** Replaces the DNS look-up of branded domains (tests). */
  resolveHost?: HostResolver
  /** Replaces the DNS client (tests point DNS_SERVERS at their own server instead, where they can). */
  dns?: DnsClient
  /** The clock of branded domains' check schedule (tests move it by hand). */
  domainClock?: () => Date
  /** Replaces the random draw of generated aliases (tests force collisions). */
  drawAlias?: AliasGenerator
  /** Tunes the webhook delivery worker (tests: a short poll, back-off and lease, a clock, a resolver). */
  webhookDelivery?: Partial<Omit<DeliveryWorkerOptions, 'send'>> & { resolveHost?: AddressResolver }
  /** Tunes imports (chunk size, lease; tests stop a job between chunks). */
  imports?: Omit<ImportServiceOptions, 'jobs' | 'linkBatch'>
  /** Tunes the event stream's publisher (EVENTS_URL; tests: a short poll and lease). */
  eventStream?: Partial<Omit<EventStreamOptions, 'url'>>
}

/**
 * How long a cache may keep an entry without hearing of a change: Redis tells every instance;
 * without it, whatever the database allows (db/database.ts cacheStaleMs).
 */
function createInvalidationBus(database: DatabaseHandle, redis: Redis | undefined): InvalidationBus {
  if (redis) return createRedisInvalidationBus(redis, 60_000)
  return createLocalInvalidationBus(database.cacheStaleMs)
}

export function createServices(deps: ServiceDependencies) {
  const { config, database, log } = deps
  const { db } = database
  const { publicUrl } = config
  const invalidation = createInvalidationBus(database, deps.redis)
  // TOTP and webhook secrets, sealed at rest when SECRETS_KEY is set (ADR 025).
  const secrets = createSecretBox(config.secretsKey)
  // Every write a service makes for a client, with its audit rows, in one transaction.
  const auditRepository = bindable(createAuditRepository, db)
  const journal = createChangeJournal({ db, audit: auditRepository })
  // Every DNS look-up Linkwell makes itself goes through one resolver: DNS_SERVERS when set (the
  // connections made for webhooks, link checks and QR logos too), else the system's.
  const dns = deps.dns ?? createDnsClient(config.dnsServers)
  const connectionResolver: AddressResolver | undefined = config.dnsServers.length > 0 ? (hostname) => dns.addresses(hostname) : undefined
  const { resolveHost: webhookResolver = connectionResolver, ...workerOptions } = deps.webhookDelivery ?? {}
  const webhookRepository = bindable(createWebhookRepository, db)
  const webhookDeliveryRepository = bindable(createWebhookDeliveryRepository, db)
  const eventOutboxRepository = bindable(createEventOutboxRepository, db)
  const webhookDelivery = createDeliveryWorker({
    deliveries: webhookDeliveryRepository,
    webhooks: webhookRepository,
    events: eventOutboxRepository,
    send: createWebhookSender({ allowPrivate: config.webhookAllowPrivate, resolveHost: webhookResolver }),
    secrets,
    onError: (error) => log.error({ err: error }, 'a webhook delivery could not be recorded; it will be tried again'),
    ...workerOptions,
  })
  // Events for webhooks, written in the transaction of what they report (ADR 018); a click
  // batch's deliveries are handed to this process's worker as the batch commits.
  const outbox = createEventOutbox({ db, events: eventOutboxRepository, deliveries: webhookDeliveryRepository, webhooks: webhookRepository, stream: config.eventsUrl !== undefined, worker: webhookDelivery })
  journal.listen(outbox.onChanges)
  // With EVENTS_URL, every event is also published to NATS JetStream.
  const eventStream = config.eventsUrl === undefined ? null : createEventStream({
    events: eventOutboxRepository,
    url: config.eventsUrl,
    onError: (error) => log.error({ err: error }, 'publishing events to NATS failed; they wait in the outbox'),
    ...deps.eventStream,
  })

  const clicks =
    deps.clickRecorder ??
    createClickRecorder({
      db,
      onError: (error) => log.error({ err: error }, 'writing clicks failed; keeping them for the next attempt'),
      onDrop: (dropped) => log.error({ dropped }, 'visits not recorded: the click queue was full, or the database refused their batch three times'),
      onShutdownLoss: (lost, error) => log.error({ lost, err: error }, 'shutting down with visits the database would not take: they are lost'),
      // link.clicked and qr.scanned events, in each batch's transaction.
      inTransaction: outbox.onClickBatch,
      // The columnar store takes the committed batches as they are instead of reading them back.
      withIds: Boolean(config.analyticsStore),
    })
  // Leads and sales as statistics count them: from the main database, whichever engine counts the clicks (issue 39).
  const conversionFigures = createConversionFiguresRepository(db)
  // Statistics from the raw clicks until the served process opens the columnar store (ANALYTICS_STORE, ADR 022).
  const statisticsEngines = createStatisticsEngines({
    db,
    rawClicks: createRawClickRepository(db),
    clicks,
    storeFile: config.analyticsStore,
    retentionDays: config.clickRetentionDays,
    clickhouse: config.clickhouse,
    onError: (error, problem) => problem === 'open'
      ? log.error({ err: error, file: config.analyticsStore }, 'the columnar store could not be opened (or @duckdb/node-api not loaded); statistics are read from the raw clicks')
      : problem === 'feed'
        ? log.warn({ err: error }, 'copying clicks into ClickHouse failed; the feeder tries again and catches up when it answers')
        : log.error({ err: error }, 'the columnar store could not catch up; it tries again'),
  })

  const plans = createPlanService({ plans: bindable(createPlanRepository, db), journal, invalidation })
  const accountRepository = bindable(createAccountRepository, db)
  const apiKeyRepository = bindable(createApiKeyRepository, db)
  const accounts = createAccountService({ accounts: accountRepository, keys: apiKeyRepository, plans, journal, invalidation, secrets })
  const apiKeys = createApiKeyService({ keys: apiKeyRepository, journal, invalidation, makerOf: (actor) => accounts.personActingFor(actor) })
  const peopleRepository = bindable(createPeopleRepository, db)
  const sessionRepository = bindable(createSessionRepository, db)
  const sessions = createSessionService({ accounts: accountRepository, sessions: sessionRepository, accountService: accounts, journal, sessionDays: config.sessionDays })
  // Mail goes out when an SMTP server is configured (one mailer: modules/mail). An invitation's
  // failure is logged and the link still answered; the sign-in mails' failures are logged too.
  const mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.smtpFrom) : undefined
  const mailInvitation = mailer ? createInvitationMailer(mailer) : undefined
  const sendAccountMail: SendMail | undefined = mailer ? (message) => mailer.send(message) : undefined
  const mailedLinkRepository = bindable(createMailedLinkRepository, db)
  const onAccountMailProblem = (problem: 'failed' | 'no_mail_server', error?: unknown) => problem === 'failed'
    ? log.error({ err: error }, 'mailing a password reset, sign-up or e-mail change link failed')
    : log.warn('a password reset was asked for, but no mail server is configured (SMTP_URL): nothing was sent')
  const sendInvitation: InvitationSender | undefined = mailInvitation
    ? (message) => mailInvitation(message).catch((error: unknown) => {
        log.error({ err: error }, 'mailing an invitation failed; the inviter has its link')
        throw error
      })
    : undefined
  const linkRepository = bindable(createLinkRepository, db)
  // One namespace owner for links, bio pages and QR codes: one generator, one retry policy.
  const aliases = createAliasService({ namespace: createAliasRepository(db), drawAlias: deps.drawAlias })
  const qrCodeRepository = bindable(createQrCodeRepository, db)
  const logoUploadRepository = createLogoUploadRepository(db)
  const logoUploads = createLogoUploadService({
    uploads: logoUploadRepository,
    uploadDir: config.uploadDir,
    onCollectError: (error) => log.error({ err: error }, 'collecting unused uploaded logos failed; the next upload tries again'),
  })
  const visitLookups = createAliasResolverRepository(db)
  const contactRepository = bindable(createContactRepository, db)
  const bioPageRepository = bindable(createBioPageRepository, db)
  const domainRepository = bindable(createDomainRepository, db)
  const campaignRepository = bindable(createCampaignRepository, db)
  const channelRepository = bindable(createChannelRepository, db)
  const overlayRepository = bindable(createOverlayRepository, db)
  const splashPageRepository = bindable(createSplashPageRepository, db)
  const pixelRepository = bindable(createPixelRepository, db)
  const statistics = createStatisticsService({
    statistics: createStatisticsRepository(db),
    items: { owners: { link: linkRepository, qr: qrCodeRepository, campaign: campaignRepository, bio: bioPageRepository }, links: linkRepository },
    engine: statisticsEngines.engine,
    conversions: conversionFigures,
  })
  // Tags of links, QR codes and bio pages, made on first use by the items that name them.
  const tags = createTagService({ tags: bindable(createTagRepository, db), journal })
  const linkChanges = createLinkChanges({ links: linkRepository, tags, publicUrl, invalidation })
  // What a link's fields name is looked up in the module that owns it.
  const linkLookups = { tags, domains: domainRepository, pixels: pixelRepository, campaigns: campaignRepository, channels: channelRepository, splashPages: splashPageRepository, overlays: overlayRepository }
  const linkCreation = createLinkCreation({ links: linkRepository, tags, changes: linkChanges, lookups: linkLookups, workspaceDefaults: accounts })
  const links = createLinkService({ links: linkRepository, aliases, journal, tags, changes: linkChanges, creation: linkCreation, lookups: linkLookups })
  const linkCards = createLinkCardService({ cards: bindable(createLinkCardRepository, db), links, journal, changes: linkChanges, publicUrl })
  const linkBatch = createLinkBatchWriter({ links: linkRepository, creation: linkCreation, changes: linkChanges, aliases, journal })
  const imports = createImportService({ jobs: createImportRepository(db), linkBatch, maxRows: config.importMaxRows, chunkSize: deps.database.longWorkChunkRows, ...deps.imports })
  // Told each hostname a workspace has just proven control of (the certificate manager orders for it).
  const domainListeners: Array<(hostname: string) => void> = []
  const domains = createDomainService({
    domains: domainRepository,
    publicUrl,
    server: { ips: config.serverIps, cname: config.serverCname },
    resolveHost: deps.resolveHost ?? dns.hostRecords,
    dns,
    allowHttpProof: config.domainVerification.allowHttp,
    challengePort: config.httpPort,
    links: { hasLinks: (accountId, domainId) => linkRepository.hasLinksOnDomain(accountId, domainId) },
    invalidation,
    journal,
    onVerified: (hostname) => domainListeners.forEach((listener) => listener(hostname)),
    now: deps.domainClock,
  })
  // With ACME_EMAIL: certificates ordered for the main host and verified domains, served from memory by SNI.
  const certificateRepository = createCertificateRepository(db)
  const certificateStore = createCertificateStore({ certificates: certificateRepository, secrets, invalidation, pollMs: 5_000, onError: (error) => log.error({ err: error }, 'a certificate could not be loaded') })
  const certificateManager = config.acme
    ? createCertificateManager({
      certificates: certificateRepository,
      acme: config.acme,
      publicHostname: certifiableHostname(publicUrl),
      verifiedHostnames: () => domains.verifiedHostnames(),
      secrets,
      invalidation,
      pollMs: config.acme.checkSeconds * 1000,
      onError: (error) => log.error({ err: error }, 'ordering certificates failed; trying again'),
      onOrder: (event) => (event.ok ? log.info(event, 'certificate issued') : log.warn(event, 'certificate order failed; trying again later')),
    })
    : undefined
  if (certificateManager) domainListeners.push(() => certificateManager.wake())
  const domainVerifier = createDomainVerifier({ domains, pollMs: config.domainVerification.pollSeconds * 1000, onError: (error) => log.warn({ err: error }, 'domain check failed') })
  // Looks at links' destinations (ADR 026); the HTTP app starts it unless LINK_CHECK=off, the CLI never does.
  const linkChecker = createLinkChecker({
    links: linkRepository,
    outbox,
    invalidation,
    allowPrivate: config.linkCheck.allowPrivate,
    intervalHours: config.linkCheck.intervalHours,
    pollMs: config.linkCheck.pollSeconds * 1000,
    resolveHost: connectionResolver,
    onError: (error) => log.error({ err: error }, 'the link checker could not record a look; it goes on'),
  })
  const conversions = createConversionService({
    db,
    conversions: bindable(createConversionRepository, db),
    settingsOf: (accountId) => accountRepository.findConversionSettings(accountId),
    flushClicks: () => clicks.flush(),
    events: outbox,
    journal,
  })
  // Single sign-on (ADR 033): OIDC_ISSUER's provider and those kept in the admin pages.
  const ssoRepository = bindable(createSsoRepository, db)
  const ssoProviders = createSsoProviders({ sso: ssoRepository, secrets, configured: config.oidc.provider })
  const singleSignOn = createSingleSignOnService({
    sso: ssoRepository,
    people: peopleRepository,
    accounts: accountRepository,
    invitations: bindable(createInvitationRepository, db),
    sessions,
    providers: ssoProviders,
    oidc: createOidcClient({ redirectUri: `${publicUrl}/api/auth/oidc/callback`, allowHttpLoopback: config.oidc.allowHttpLoopback }),
    secrets,
    journal,
    invalidation,
  })
  const ssoRecheck = createSsoRecheck({
    singleSignOn,
    recheckSeconds: config.oidc.recheckSeconds,
    onError: (error) => log.error({ err: error }, 'rechecking single sign-on groups failed; trying again'),
  })
  const importWorker = createImportWorker({ imports, onError: (error) => log.error({ err: error }, 'an import stopped on an unexpected error') })

  return {
    config,
    database,
    redis: deps.redis,
    invalidation,
    /** Where every service write is recorded with its audit rows and its events. */
    journal,
    /** Reading the audit rows the journal writes, and keeping them to AUDIT_RETENTION_DAYS. */
    audit: createAuditService({ entries: auditRepository }),
    /** Links and raw clicks out again, streamed (CSV, JSON, NDJSON). */
    exports: createExportService({ rows: createExportRepository(db), publicUrl }),
    /** Events for webhooks, written in the transaction of the change they report. */
    outbox,
    /** Sends the outbox's deliveries; the HTTP app starts it, the CLI never does. */
    webhookDelivery,
    /** Publishes the outbox's events to NATS JetStream (EVENTS_URL); null without it. */
    eventStream,
    webhooks: createWebhookService({ webhooks: webhookRepository, deliveries: webhookDeliveryRepository, journal, outbox, worker: webhookDelivery, allowPrivate: config.webhookAllowPrivate, secrets }),
    /** Where every visit goes (links, QR scans, rotators, bio pages). */
    clicks,
    accounts,
    /** Leads and sales attributed to clicks (issue 39, ADR 034). */
    conversions,
    /** Stripe's signed events as sales (POST /api/integrations/stripe/webhook/{token}). */
    stripeReceiver: createStripeReceiver({ conversions, receiverOf: (token) => accounts.stripeReceiverOf(token) }),
    /** API keys: issued, listed, revoked, and checked on every request that carries one. */
    apiKeys,
    /** The dashboard's sign-in: passwords and sessions. */
    sessions,
    /** Forgotten passwords: a mailed, single-use link (issue 38). */
    passwordResets: createPasswordResetService({
      accounts: accountRepository,
      links: mailedLinkRepository,
      journal,
      dashboardUrl: `${publicUrl}/app`,
      send: sendAccountMail,
      onMailProblem: onAccountMailProblem,
    }),
    /** Sign-up with a confirmed address, when SIGNUP allows it (issue 38). */
    signUps: createSignUpService({
      accounts: accountRepository,
      accountService: accounts,
      links: mailedLinkRepository,
      policy: config.signup,
      dashboardUrl: `${publicUrl}/app`,
      send: sendAccountMail,
      onMailProblem: onAccountMailProblem,
    }),
    /** A person's sign-in address changed after the new one is confirmed (issue 38). */
    emailChanges: createEmailChangeService({
      accounts: accountRepository,
      links: mailedLinkRepository,
      journal,
      dashboardUrl: `${publicUrl}/app`,
      send: sendAccountMail,
      onMailProblem: onAccountMailProblem,
      // A person the provider signs in proves who they are by signing in again (ten minutes).
      isFreshSignIn: (actor) => sessions.isFreshSingleSignOn(actor.sessionId, FRESH_SIGN_IN_MINUTES),
    }),
    /** Second factors: TOTP enrolment, recovery codes, the sign-in's second step, a workspace's requirement (ADR 025). */
    twoFactor: createTwoFactorService(
      { people: peopleRepository, twoFactor: bindable(createTwoFactorRepository, db), sessionRows: sessionRepository, sessions, journal },
      { issuer: `Linkwell (${new URL(publicUrl).host})`, secrets },
    ),
    /** Signing in with an OpenID provider: matching, group mapping, the recheck (ADR 033). */
    singleSignOn,
    /** The providers the administrator keeps and each workspace's single sign-on settings. */
    ssoSettings: createSsoSettingsService({ sso: ssoRepository, providers: ssoProviders, secrets, journal, configured: config.oidc.provider }),
    /** Reads single sign-on people's groups again every OIDC_RECHECK; the HTTP app starts it, the CLI never does. */
    ssoRecheck,
    /** The people of each workspace and their roles. */
    members: createMemberService({ people: peopleRepository, journal, invalidation }),
    /** Who may create workspaces, and how many (WORKSPACE_CREATION, ADR 029). */
    workspaceCreation: createWorkspaceCreationService({ people: peopleRepository, accounts, policy: config.workspaceCreation }),
    /** Invitations to a workspace: links, mails, acceptance. */
    invitations: createInvitationService({
      invitations: bindable(createInvitationRepository, db),
      people: peopleRepository,
      accounts,
      journal,
      invalidation,
      dashboardUrl: `${publicUrl}/app`,
      send: sendInvitation,
    }),
    plans,
    /** What an account uses of its plan's limits. */
    planUsage: createPlanUsageService({
      links: (accountId) => linkRepository.count(accountId),
      qrcodes: (accountId) => qrCodeRepository.count(accountId),
      logos: (accountId) => logoUploadRepository.count(accountId),
      bio: (accountId) => bioPageRepository.count(accountId),
      campaigns: (accountId) => campaignRepository.count(accountId),
      channels: (accountId) => channelRepository.count(accountId),
      pixels: (accountId) => pixelRepository.count(accountId),
      domains: (accountId) => domainRepository.count(accountId),
      splash: (accountId) => splashPageRepository.count(accountId),
      overlays: (accountId) => overlayRepository.count(accountId),
    }),
    users: createUserAdministration({ accounts, plans, invalidation, people: peopleRepository }),
    statistics,
    /** The funnel and the top reports of conversions (issue 39). */
    conversionReports: createConversionReports({ statistics, conversions: conversionFigures, links: linkRepository }),
    /** The columnar store (ANALYTICS_STORE): the served process opens it, the CLI never does (one process holds the file). */
    analyticsStore: statisticsEngines,
    links,
    /** Links' social cards. */
    linkCards,
    /** Many links at once: `POST /api/urls/bulk` and imports. */
    linkBatch,
    /** Import jobs (CSV, Bitly, YOURLS): started by the API or the CLI, resumed after a restart. */
    imports,
    /** Runs the import jobs of the API; the HTTP app starts it, the CLI never does. */
    importWorker,
    /** Tags of links, QR codes and bio pages (issue 23). */
    tags,
    linkChecker,
    /** The account's named sets of UTM parameters for links (issue 23). */
    utmTemplates: createUtmTemplateService({ templates: bindable(createUtmTemplateRepository, db), journal }),
    bioPages: createBioPageService({ pages: bioPageRepository, aliases, journal, invalidation, publicUrl, tags }),
    domains,
    /** Checks unproven branded domains in the background (ADR 031); the HTTP app starts it, the CLI never does. */
    domainVerifier,
    /** With ACME_EMAIL: orders certificates (the served app starts it); undefined without. */
    certificateManager,
    /** The certificates this instance serves over TLS, by hostname. */
    certificateStore,
    campaigns: createCampaignService({
      campaigns: campaignRepository,
      links: {
        assignToCampaign: (executor, accountId, campaignId, linkId) => linkRepository.in(executor).setCampaign(accountId, linkId, campaignId),
        unassignFromCampaign: (executor, accountId, campaignId, linkId) => linkRepository.in(executor).unassignFromCampaign(accountId, campaignId, linkId),
        unassignAllFromCampaign: (executor, accountId, campaignId) => linkRepository.in(executor).unassignAllFromCampaign(accountId, campaignId),
      },
      invalidation,
      journal,
      publicUrl,
    }),
    campaignPages: createCampaignPagesService({ pages: createCampaignPagesRepository(db), invalidation, publicUrl }),
    channels: createChannelService({
      channels: channelRepository,
      items: bindable(createChannelItemRepository, db),
      sources: {
        links: createShortLinkItemSource(linkRepository, publicUrl),
        bio: createBioPageItemSource(bioPageRepository, publicUrl),
        qr: createQrCodeItemSource(qrCodeRepository, publicUrl),
      },
      journal,
    }),
    overlays: createOverlayService({ overlays: overlayRepository, journal, invalidation, contacts: contactRepository, events: outbox }),
    splashPages: createSplashPageService({ pages: splashPageRepository, journal, invalidation }),
    pixels: createPixelService({ pixels: pixelRepository, journal, invalidation }),
    qrCodes: createQrCodeService({ qrCodes: qrCodeRepository, publicUrl, loadLogo: deps.loadLogo ?? createLogoLoader({ uploadDir: config.uploadDir, uploads: logoUploads, fetch: { resolveHost: connectionResolver } }), aliases, journal, tags }),
    qrImages: createQrImageService({ qrCodes: qrCodeRepository, publicUrl }),
    logoUploads,
    /** Every visit of a short address: what it serves, where it sends this visitor, the click it records. */
    visits: createVisitService({
      aliasResolver: createAliasResolver({ lookups: visitLookups, invalidation }),
      hostRouter: createHostRouter({ lookups: visitLookups, invalidation, publicUrl }),
      clicks,
      redirectStatus: config.redirectStatus,
      upgradePassword: createPasswordUpgrade((linkId, from, to) => linkRepository.replacePasswordHash(linkId, from, to)),
    }),

    /** Stops sending webhooks, writes every queued click and stops listening for invalidations: after the server stopped. */
    async close(): Promise<void> {
      await webhookDelivery.stop()
      await importWorker.stop()
      await linkChecker.stop()
      await domainVerifier.stop()
      await ssoRecheck.stop()
      await certificateManager?.stop()
      await certificateStore.stop()
      await eventStream?.stop()
      await clicks.close()
      await statisticsEngines.close()
      await invalidation.close()
      mailer?.close()
    },
  }
}

export type Services = ReturnType<typeof createServices>
