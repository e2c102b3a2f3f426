// Data for the channel tests. QR rows are written directly: these suites test channels, not the
// QR endpoints.
import { expect } from 'vitest'
import type { ApiClient, TestContext } from '../../helpers/test-app.js'
import { nowTimestamp } from '../../../src/core/time.js'

let qrCounter = 0

/** Inserts a QR code of the account and answers its id and alias. */
export async function insertQrCode(context: TestContext, accountId: number, name: string): Promise<{ id: number; alias: string }> {
  qrCounter += 1
  const alias = `qr${qrCounter}x${Math.floor(Math.random() * 1e6)}`
  const now = nowTimestamp()
  return context.database.db
    .insertInto('qr_codes')
    .values({ account_id: accountId, alias, name, type: 'text', data: '"hello"', background: 'rgb(255,255,255)', foreground: 'rgb(0,0,0)', logo: null, logo_source: null, scans: 0, created_at: now, updated_at: now })
    .returning(['id', 'alias'])
    .executeTakeFirstOrThrow()
}

/** Creates a channel through the API and answers its id. */
export async function createChannel(client: ApiClient, name: string): Promise<number> {
  const response = await client('POST', '/api/channel/add', { name })
  expect(response.statusCode).toBe(201)
  return response.data.id
}

/** The membership rows of a channel, straight from the database. */
export async function channelItemRows(context: TestContext, channelId: number) {
  return context.database.db.selectFrom('channel_items').selectAll().where('channel_id', '=', channelId).execute()
}
