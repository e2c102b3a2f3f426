// GET /api/account, PUT /api/account/update (spec: Account); PUT /api/account/password; GET
// /api/account/limits; GET /api/account/settings. The account's API keys: modules/api-keys/api-key.routes.ts.
import type { App } from '../../http/app-instance.js'
import type { AccountService } from './account.service.js'
import type { SessionService } from './session.service.js'
import type { PlanUsageService } from '../plans/plan-limits.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import type { SignInThrottle } from '../../http/sign-in-throttle.js'
import { toAccountRecord } from './account.mapper.js'
import { conversionSettingsOf } from './account.repository.js'
import { AccountResponse, AccountSettingsResponse, AccountUpdateBody, PasswordChangeBody, LimitsResponse } from './account.schemas.js'
import { roleAllows } from '../access/roles.js'
import { personSubject } from './session.service.js'
import { MessageResponse } from '../../core/schemas.js'

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface AccountRouteDependencies {
  accounts: AccountService
  sessions: SessionService
  planUsage: PlanUsageService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
  throttle: SignInThrottle
}

export function registerAccountRoutes(app: App, { accounts, sessions, planUsage, publicUrl, throttle }: AccountRouteDependencies): void {
  app.get('/api/account', {
    schema: { tags: ['account'], summary: 'Read the account', response: { 200: AccountResponse, ...errorResponses } },
  }, async (request) => {
    const account = await accounts.getAccountOrThrow(accountOf(request).id)
    return { error: 0 as const, data: toAccountRecord(account, publicUrl) }
  })

  app.get('/api/account/settings', {
    schema: { tags: ['account'], summary: "Read the workspace's settings beyond the spec's account (its statistics' time zone, conversion tracking)", response: { 200: AccountSettingsResponse, ...errorResponses } },
  }, async (request) => {
    const account = await accounts.getAccountOrThrow(accountOf(request).id)
    const conversions = conversionSettingsOf(account)
    const stripe = await accounts.stripeSettingsOf(account.id)
    return {
      error: 0 as const,
      data: {
        timezone: account.time_zone,
        trackconversions: conversions.trackConversions,
        clickidparameter: conversions.clickIdParameter,
        querypassthrough: conversions.queryPassthrough,
        attributiondays: conversions.attributionDays,
        trackingorigins: conversions.trackingOrigins,
        customeremails: conversions.customerEmails,
        stripewebhookurl: stripe.token === null ? null : `${publicUrl.replace(/\/$/, '')}/api/integrations/stripe/webhook/${stripe.token}`,
        stripesigningsecretset: stripe.secretSet,
      },
    }
  })

  app.put('/api/account/update', {
    schema: { tags: ['account'], summary: 'Update e-mail, password and/or the workspace\'s settings (time zone, conversion tracking)', description: 'With a key the password and the e-mail are set directly (a session confirms the password through PUT /api/account/password, and a new address through POST /api/account/email, which mails a confirmation link). A key limited to some resources or to reads changes neither `email` nor `password` (403).', body: AccountUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    await accounts.updateAccount(account, request.body)
    return { error: 0 as const, message: 'Account has been successfully updated.' }
  })

  app.put('/api/account/password', {
    schema: {
      tags: ['account'],
      summary: 'Change the password, confirming the current one; every other session is signed out',
      description: 'Wrong current passwords are throttled like sign-ins (429 with Retry-After).',
      body: PasswordChangeBody,
      response: { 200: MessageResponse, ...errorResponses },
    },
  }, async (request) => {
    const account = accountOf(request)
    await throttle.guard(personSubject(account.personId ?? 0), request.ip, () =>
      sessions.changePassword(account, request.body.current, request.body.password),
    )
    return { error: 0 as const, message: 'Your password has been changed. Your other sessions have been signed out.' }
  })

  app.get('/api/account/limits', {
    schema: {
      tags: ['account'],
      summary: "What the account may do: administer, and how much of its plan's limits it uses",
      description: 'Every limited resource with its count and the plan\'s limit (null: unlimited), so a client can show "3 of 10 campaigns" and explain a refused create before it is tried; `admin` says whether the administration endpoints answer.',
      response: { 200: LimitsResponse, ...errorResponses },
    },
  }, async (request) => {
    const account = accountOf(request)
    const stored = await accounts.getAccountOrThrow(account.id)
    // The administration answers an administrator's workspace's owners (http/api-roles.ts).
    const admin = account.isAdmin && roleAllows(account.role, 'owner')
    return { error: 0 as const, data: { planid: stored.plan_id, admin, resources: await planUsage.usageOf(account) } }
  })
}
