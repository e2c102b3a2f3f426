// GET /api/account, PUT /api/account/update (spec: Account); the account's API keys (issue 13):
// GET /api/keys, POST /api/key/add (optionally limited), DELETE /api/key/{id}/delete; for the
// dashboard's account page (issue 10) PUT /api/account/password and GET /api/account/keys,
// POST /api/account/key/add, DELETE /api/account/key/{id}/delete over the same service functions.
import type { App } from '../../http/app-instance.js'
import type { Services } from '../../services.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import type { SignInThrottle } from '../../http/sign-in-throttle.js'
import { toAccountRecord } from './account.mapper.js'
import { AccountResponse, AccountUpdateBody, ApiKeyCreateBody, ApiKeyCreatedResponse, ApiKeyListResponse, KeyCreateBody, KeyCreatedResponse, KeyListResponse, KeyParams, PasswordChangeBody, LimitsResponse } from './account.schemas.js'
import { parseResources } from './api-key-scopes.js'
import { accountSubject } from './session.service.js'
import { ValidationError } from '../../core/errors.js'
import { nowTimestamp, toStoredTimestamp } from '../../core/time.js'
import { IdParams, MessageResponse } from '../../core/schemas.js'

export function registerAccountRoutes(app: App, { accounts, sessions, config, planUsage }: Services, { throttle }: { throttle: SignInThrottle }): void {
  app.get('/api/account', {
    schema: { tags: ['account'], summary: 'Read the account', response: { 200: AccountResponse, ...errorResponses } },
  }, async (request) => {
    const account = await accounts.getAccountOrThrow(accountOf(request).id)
    return { error: 0 as const, data: toAccountRecord(account, config.publicUrl) }
  })

  app.put('/api/account/update', {
    schema: { tags: ['account'], summary: 'Update e-mail and/or password', body: AccountUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    const account = accountOf(request)
    await accounts.updateAccount(account.id, request.body, account.sessionId)
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
    await throttle.guard(accountSubject(account.id), request.ip, () =>
      sessions.changePassword(account.id, request.body.current, request.body.password, account.sessionId),
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
    return { error: 0 as const, data: { planid: stored.plan_id, admin: account.isAdmin, resources: await planUsage.usageOf(account) } }
  })

  app.get('/api/account/keys', {
    schema: { tags: ['account'], summary: 'List the account\'s API keys (never the keys themselves)', response: { 200: ApiKeyListResponse, ...errorResponses } },
  }, async (request) => {
    return { error: 0 as const, data: { keys: await accounts.listKeys(accountOf(request).id) } }
  })

  app.post('/api/account/key/add', {
    schema: { tags: ['account'], summary: 'Create an API key; the answer shows it once', body: ApiKeyCreateBody, response: { 201: ApiKeyCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const account = accountOf(request)
    const created = await accounts.createNamedKey(account.id, request.body.name, request.body.expires ?? null, account.keyScope)
    return reply.code(201).send({ error: 0 as const, id: created.id, name: created.name, prefix: created.prefix, expires: created.expires, key: created.key })
  })

  app.delete('/api/account/key/:id/delete', {
    schema: { tags: ['account'], summary: 'Revoke an API key; it stops working at once', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await accounts.revokeKey(accountOf(request).id, request.params.id)
    return { error: 0 as const, message: 'The API key has been revoked.' }
  })

  app.get('/api/keys', {
    schema: { tags: ['account'], summary: 'List the account\'s API keys (never the keys themselves)', response: { 200: KeyListResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await accounts.listKeys(accountOf(request).id) }))

  app.post('/api/key/add', {
    schema: {
      tags: ['account'],
      summary: 'Create an API key, optionally limited to some resources and/or to reads; a limited key creates only keys within its own limits',
      body: KeyCreateBody,
      response: { 201: KeyCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const account = accountOf(request)
    const { name, expires, scopes, readonly } = request.body
    const expiresAt = expires === undefined ? null : toStoredTimestamp(expires) ?? null
    if (expires !== undefined && (expiresAt === null || expiresAt <= nowTimestamp())) throw ValidationError.field('expires', 'must be a valid date-time in the future')
    // Unspecified limits are the creating key's own: a limited key never hands out more than it holds.
    const scope = {
      resources: scopes === undefined ? account.keyScope.resources : parseResources(scopes),
      readOnly: readonly ?? account.keyScope.readOnly,
    }
    const created = await accounts.createKey(account.id, { name: name?.trim() || 'key', expiresAt, scope }, account.keyScope)
    return reply.code(201).send({ error: 0 as const, id: created.id, key: created.key, scopes: scope.resources, readonly: scope.readOnly })
  })

  app.delete('/api/key/:id/delete', {
    schema: { tags: ['account'], summary: 'Delete an API key: it stops working at once', params: KeyParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await accounts.revokeKey(accountOf(request).id, request.params.id)
    return { error: 0 as const, message: 'API key has been deleted.' }
  })
}
