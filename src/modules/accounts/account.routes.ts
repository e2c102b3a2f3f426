// GET /api/account, PUT /api/account/update (spec: Account).
import type { App } from '../../http/app-instance.js'
import type { Services } from '../../services.js'
import { accountOf } from '../../http/auth.js'
import { errorResponses } from '../../http/schemas.js'
import { toAccountRecord } from './account.mapper.js'
import { AccountResponse, AccountUpdateBody } from './account.schemas.js'
import { MessageResponse } from '../../core/schemas.js'

export function registerAccountRoutes(app: App, { accounts, config }: Services): void {
  app.get('/api/account', {
    schema: { tags: ['account'], summary: 'Read the account', response: { 200: AccountResponse, ...errorResponses } },
  }, async (request) => {
    const account = await accounts.getAccountOrThrow(accountOf(request).id)
    return { error: 0 as const, data: toAccountRecord(account, config.publicUrl) }
  })

  app.put('/api/account/update', {
    schema: { tags: ['account'], summary: 'Update e-mail and/or password', body: AccountUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await accounts.updateAccount(accountOf(request).id, request.body)
    return { error: 0 as const, message: 'Account has been successfully updated.' }
  })
}
