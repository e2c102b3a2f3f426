// The account's API keys (issue 13, and the dashboard's account page): GET /api/keys, POST
// /api/key/add (named, expiring, optionally limited), DELETE /api/key/{id}/delete. Registered right
// after the account's routes (app.ts), under the same `account` tag and key scope (http/api-scopes.ts).
import type { App } from '../../http/app-instance.js'
import type { ApiKeyService } from './api-key.service.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import { KeyCreateBody, KeyCreatedResponse, KeyListResponse, KeyParams } from './api-key.schemas.js'
import { parseResources } from '../access/api-key-scopes.js'
import { MessageResponse } from '../../core/schemas.js'

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface ApiKeyRouteDependencies {
  apiKeys: ApiKeyService
}

export function registerApiKeyRoutes(app: App, { apiKeys }: ApiKeyRouteDependencies): void {
  app.get('/api/keys', {
    schema: { tags: ['account'], summary: 'List the account\'s API keys (never the keys themselves)', response: { 200: KeyListResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await apiKeys.listKeys(accountOf(request).id) }))

  app.post('/api/key/add', {
    schema: {
      tags: ['account'],
      summary: 'Create an API key, optionally limited to some resources and/or to reads; a limited key creates only keys within its own limits. The answer shows the key once.',
      description: 'A key made with a key that expires expires no later: an `expires` after the creating key\'s, or none, is capped at the creating key\'s expiry, which the answer\'s `expires` shows.',
      body: KeyCreateBody,
      response: { 201: KeyCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const account = accountOf(request)
    const { name, expires, scopes, readonly } = request.body
    // Unspecified limits are the creating key's own: a limited key never hands out more than it holds.
    const scope = {
      resources: scopes === undefined ? account.keyScope.resources : parseResources(scopes),
      readOnly: readonly ?? account.keyScope.readOnly,
    }
    // A key expires no later than the key that made it (ADR 027); a session's creator never expires.
    const created = await apiKeys.createNamedKey(account, { name: name ?? 'key', expires: expires ?? null, scope }, account.keyScope, account.keyExpires)
    return reply.code(201).send({ error: 0 as const, ...created, scopes: scope.resources, readonly: scope.readOnly })
  })

  app.delete('/api/key/:id/delete', {
    schema: { tags: ['account'], summary: 'Delete an API key: it stops working at once', params: KeyParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await apiKeys.revokeKey(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'API key has been deleted.' }
  })
}
