// SQL for QR codes. Every method is scoped by account id, except the public lookup by alias.
import { inTransaction } from '../../db/transactions.js'
import type { DB } from '../../db/database.js'
import { findOwnedRow, ownershipQueries } from '../../db/owned-rows.js'
import { fetchPage } from '../../db/paging.js'
import type { QrCodeRow, QrCodeUpdate } from '../../db/schema.js'
import { removeItemFromAllChannels } from '../channels/channel-items.repository.js'
import { nowTimestamp } from '../../core/time.js'
import type { PageRequest } from '../../core/paging.js'

/** The columns of a list entry: never the logo bytes. */
const LIST_COLUMNS = ['id', 'alias', 'name', 'scans', 'created_at'] as const
export type QrCodeListRow = Pick<QrCodeRow, (typeof LIST_COLUMNS)[number]>

export interface NewQrCode {
  alias: string
  /** Undefined: named by `nameForId` once the id is known. */
  name: string | undefined
  nameForId: (id: number) => string
  type: string
  /** JSON text. */
  data: string
  background: string
  foreground: string
  logo: Buffer | null
  logoSource: string | null
}

export interface QrCodeChanges {
  data: string
  name?: string
  background?: string
  foreground?: string
  /** Undefined: unchanged; null: removed. */
  logo?: { bytes: Buffer; source: string } | null
}

export function createQrCodeRepository(db: DB) {
  return {
    ...ownershipQueries(db, 'qr_codes'),
    /** A page of the account's codes, newest first; `ids` (when given) keeps only those. */
    async listPage(accountId: number, page: PageRequest, ids?: readonly number[]) {
      if (ids !== undefined && ids.length === 0) return { rows: [], total: 0 }
      const owned = db.selectFrom('qr_codes').where('account_id', '=', accountId)
      return fetchPage(ids === undefined ? owned : owned.where('id', 'in', [...ids]), page, (q) => q.select(LIST_COLUMNS).orderBy('id', 'desc'))
    },

    async findById(accountId: number, id: number): Promise<QrCodeRow | undefined> {
      return findOwnedRow(db, 'qr_codes', accountId, id)
    },

    /**
     * Public: the image and tracking addresses carry only the alias, which is unique service-wide.
     * Exact spelling: QR aliases are drawn in lower case and scanned, not typed (docs/adr/006-alias-case.md).
     */
    async findByAlias(alias: string): Promise<QrCodeRow | undefined> {
      return db.selectFrom('qr_codes').selectAll().where('alias', '=', alias).executeTakeFirst()
    },

    /** What a channel shows of the account's codes among `ids`. */
    findChannelItems(accountId: number, ids: readonly number[]) {
      return db.selectFrom('qr_codes').select(['id', 'name', 'alias']).where('account_id', '=', accountId).where('id', 'in', [...ids]).execute()
    },

    /** Inserts; throws the driver's unique violation when the alias is taken. */
    async insert(accountId: number, qr: NewQrCode): Promise<QrCodeRow> {
      return inTransaction(db, async (trx) => {
        const now = nowTimestamp()
        const row = await trx
          .insertInto('qr_codes')
          .values({
            account_id: accountId,
            alias: qr.alias,
            // Placeholder replaced in the same transaction when the default name needs the id.
            name: qr.name ?? '',
            type: qr.type,
            data: qr.data,
            background: qr.background,
            foreground: qr.foreground,
            logo: qr.logo,
            logo_source: qr.logoSource,
            scans: 0,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        if (qr.name !== undefined) return row
        return trx.updateTable('qr_codes').set({ name: qr.nameForId(row.id) }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow()
      })
    },

    async update(accountId: number, id: number, changes: QrCodeChanges): Promise<QrCodeRow | undefined> {
      const values: QrCodeUpdate = { data: changes.data, updated_at: nowTimestamp() }
      if (changes.name !== undefined) values.name = changes.name
      if (changes.background !== undefined) values.background = changes.background
      if (changes.foreground !== undefined) values.foreground = changes.foreground
      if (changes.logo !== undefined) {
        values.logo = changes.logo?.bytes ?? null
        values.logo_source = changes.logo?.source ?? null
      }
      return db.updateTable('qr_codes').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst()
    },

    /** Deletes the QR code and takes it out of every channel, in one transaction. */
    async delete(accountId: number, id: number): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const result = await trx.deleteFrom('qr_codes').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst()
        if (Number(result.numDeletedRows) === 0) return false
        await removeItemFromAllChannels(trx, accountId, 'qr', id)
        return true
      })
    },
  }
}

export type QrCodeRepository = ReturnType<typeof createQrCodeRepository>
