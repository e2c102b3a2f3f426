// SECRETS_KEY (security review, issue 36; ADR 025): TOTP and webhook secrets are sealed at rest
// with AES-GCM; the rows hold no plaintext secret, sign-in with a code and webhook signing work
// as before, secrets stored before the key was set still work and are sealed by `secrets seal`.
import { Webhook } from 'standardwebhooks'
import { codeOf } from '../../helpers/totp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardClient, sessionCookieOf, signedInClient, signIn } from '../../helpers/dashboard-client.js'
import { createAccount, useTestApp } from '../../helpers/test-app.js'
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { createSecretBox } from '../../../src/core/secret-box.js'
import { SECRET_COMMANDS } from '../../../src/cli/secret-commands.js'
import type { CommandContext } from '../../../src/cli/command.js'

const KEY = 'a'.repeat(64)
const PASSWORD = 'sealed secrets password'

describe('secrets sealed with SECRETS_KEY', () => {
  const { context, api } = useTestApp({ env: { SECRETS_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: '1' }, webhookDelivery: { pollMs: 50 } })
  let receiver: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
  })
  afterAll(() => receiver.close())
  const box = createSecretBox(Buffer.from(KEY, 'hex'))

  async function signInWithCode(username: string, secret: string, stepsAhead: number) {
    const half = dashboardClient(context.app, sessionCookieOf(await signIn(context.app, username, PASSWORD))!)
    const verified = await half('POST', '/api/auth/two-factor/verify', { code: codeOf(secret, stepsAhead) })
    expect(verified.statusCode, verified.body).toBe(200)
  }

  it('stores the TOTP secret sealed, and signs in with its codes', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const { secret } = (await client('POST', '/api/auth/two-factor/setup')).data.data
    const personRow = () => context.database.db.selectFrom('people').select(['totp_secret', 'totp_pending_secret']).where('username', '=', owner.username).executeTakeFirstOrThrow()
    expect(JSON.stringify(await personRow())).not.toContain(secret)
    expect((await client('POST', '/api/auth/two-factor/enable', { code: codeOf(secret) })).statusCode).toBe(200)
    const stored = await personRow()
    expect(stored.totp_secret).toMatch(/^sealed:v1:/)
    expect(JSON.stringify(stored)).not.toContain(secret)
    expect(box.open(stored.totp_secret!)).toBe(secret)
    await signInWithCode(owner.username, secret, 1)
  })

  it('stores the webhook secret sealed, and signs deliveries with it', async () => {
    const created = await api('POST', '/api/webhook/add', { url: `${receiver.url}/sealed`, events: ['campaign.created'] })
    expect(created.statusCode).toBe(201)
    const { id, secret } = created.data as { id: number; secret: string }
    const row = await context.database.db.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.secret).toMatch(/^sealed:v1:/)
    expect(row.secret).not.toContain(secret)
    expect(row.secret).not.toContain(secret.replace(/^whsec_/, ''))
    const start = receiver.delivered.length
    await api('POST', '/api/campaign/add', { name: 'Sealed' })
    const [request] = (await receiver.waitForDelivered(start + 1)).slice(start)
    expect((new Webhook(secret).verify(request!.body, request!.headers) as { type: string }).type).toBe('campaign.created')
  })

  it('reads secrets stored before the key was set, and `secrets seal` seals them', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const { secret } = (await client('POST', '/api/auth/two-factor/setup')).data.data
    expect((await client('POST', '/api/auth/two-factor/enable', { code: codeOf(secret) })).statusCode).toBe(200)
    const db = context.database.db
    // As an instance without the key stored it (the step used forgotten, so that this step's code signs in).
    await db.updateTable('people').set({ totp_secret: secret, totp_last_step: null }).where('username', '=', owner.username).execute()
    await signInWithCode(owner.username, secret, 0)
    const sealSecrets = SECRET_COMMANDS.find((command) => command.name === 'secrets seal')!
    const result = await sealSecrets.run({}, { ...context.services, db, applied: [], readInputLine: async () => '' } as unknown as CommandContext)
    expect(result).toMatchObject({ sealed: { totp: 1 } })
    const stored = await db.selectFrom('people').select('totp_secret').where('username', '=', owner.username).executeTakeFirstOrThrow()
    expect(stored.totp_secret).toMatch(/^sealed:v1:/)
    await signInWithCode(owner.username, secret, 1)
    // Run again: nothing left to seal.
    expect(await sealSecrets.run({}, { ...context.services, db, applied: [], readInputLine: async () => '' } as unknown as CommandContext)).toEqual({ sealed: { totp: 0, webhooks: 0 } })
  })
})

describe('without SECRETS_KEY', () => {
  const { context } = useTestApp()

  it('stores the TOTP secret as before', async () => {
    const owner = await createAccount(context, { password: PASSWORD })
    const { client } = await signedInClient(context.app, owner.username, PASSWORD)
    const { secret } = (await client('POST', '/api/auth/two-factor/setup')).data.data
    expect((await client('POST', '/api/auth/two-factor/enable', { code: codeOf(secret) })).statusCode).toBe(200)
    const stored = await context.database.db.selectFrom('people').select('totp_secret').where('username', '=', owner.username).executeTakeFirstOrThrow()
    expect(stored.totp_secret).toBe(secret)
  })
})
