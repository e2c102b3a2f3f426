// QR codes as channel items (spec: item type `qr`).
import { defineItemSource, type ChannelItemSource } from '../channels/channel-items.js'
import { qrImageUrl } from './qr-code.mapper.js'
import type { QrCodeRepository } from './qr-code.repository.js'

/** QR codes as channel items: titled by name; link and preview are the public image URL. */
export function createQrCodeItemSource(codes: Pick<QrCodeRepository, 'ownedIds' | 'ownedIdsAmong' | 'findChannelItems'>, publicUrl: string): ChannelItemSource {
  return defineItemSource(codes, async (accountId, ids) => {
    const rows = await codes.findChannelItems(accountId, ids)
    return rows.map((row) => {
      // decisions §6: `{base}/qr/{alias}` serves the QR image, so it is the preview too.
      const imageUrl = qrImageUrl(publicUrl, row.alias)
      return [row.id, { title: row.name, preview: imageUrl, link: imageUrl }]
    })
  })
}
