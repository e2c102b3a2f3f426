// QR codes as channel items (spec: item type `qr`).
import type { DB } from '../../db/database.js'
import { defineItemSource, type ChannelItemSource } from '../channels/channel-items.js'
import { qrImageUrl } from './qr-code.mapper.js'

/** QR codes as channel items: titled by name; link and preview are the public image URL. */
export function createQrCodeItemSource(db: DB, publicUrl: string): ChannelItemSource {
  return defineItemSource(db, 'qr_codes', async (accountId, ids) => {
    const rows = await db.selectFrom('qr_codes').select(['id', 'name', 'alias']).where('account_id', '=', accountId).where('id', 'in', ids).execute()
    return rows.map((row) => {
      // decisions §6: `{base}/qr/{alias}` serves the QR image, so it is the preview too.
      const imageUrl = qrImageUrl(publicUrl, row.alias)
      return [row.id, { title: row.name, preview: imageUrl, link: imageUrl }]
    })
  })
}
