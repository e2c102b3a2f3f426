// QR code rules: data per type, colors, logo loading, the payload fitting a symbol, plan limits,
// random aliases (drawn by the aliases module, in the `/qr/{alias}` namespace).
import type { QrCodeRow } from '../../db/schema.js'
import { longestGeneratedAlias, type AliasService } from '../aliases/alias.service.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import type { LogoLoader } from './logo-source.js'
import type { QrCreateInput, QrType, QrUpdateInput } from './qr-code.schemas.js'
import type { QrCodeRepository } from './qr-code.repository.js'
import { toQrDetails } from './qr-code.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { parseQrData, storedQrData, type QrData } from './qr-data.js'
import { encodeQrPayload, qrTrackingUrl } from './qr-payload.js'
import { assertPayloadFits, formatRgb, parseRgb, renderQrImage, type QrImageFormat } from '../../images/qr-render.js'
import { NotFoundError, ValidationError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import type { TagService } from '../tags/tag.service.js'

export const DEFAULT_BACKGROUND = 'rgb(255,255,255)'
export const DEFAULT_FOREGROUND = 'rgb(0,0,0)'

const TYPE_LABELS: Record<QrType, string> = {
  text: 'Text',
  vcard: 'vCard',
  link: 'Link',
  email: 'E-mail',
  phone: 'Phone',
  sms: 'SMS',
  wifi: 'Wi-Fi',
}

export interface QrCodeServiceOptions {
  qrCodes: Bindable<QrCodeRepository>
  /** The base of the codes' tracking addresses, which their symbols encode. */
  publicUrl: string
  loadLogo: LogoLoader
  /** Draws QR aliases (their own namespace: the qr_codes table's unique index). */
  aliases: AliasService
  journal: ChangeJournal
  /** Codes' tags (made on first use). */
  tags: TagService
}

/** The default name of a QR code: its type and id, e.g. `Wi-Fi QR 12`. */
export function defaultQrName(type: QrType, id: number): string {
  return `${TYPE_LABELS[type]} QR ${id}`
}

/** The text encoded in a stored QR code's symbol. */
export function payloadOf(row: Pick<QrCodeRow, 'type' | 'data' | 'alias'>, publicUrl: string): string {
  return encodeQrPayload(storedQrData(row.type, row.data), qrTrackingUrl(publicUrl, row.alias))
}

function canonicalColor(color: string | undefined, fallback: string): string {
  if (color === undefined) return fallback
  const rgb = parseRgb(color)
  // The body schema already checked the form; this keeps the stored text canonical.
  return rgb ? formatRgb(rgb) : fallback
}

function assertColorsDiffer(background: string, foreground: string): void {
  if (background === foreground) throw ValidationError.field('foreground', 'must differ from the background color')
}

/** What a preview is drawn at: the public image's choices. */
export interface QrPreviewOptions {
  format: QrImageFormat
  size: number
}

/**
 * The alias a preview of a new code encodes in its tracking address: the longest one a creation
 * may draw, so the previewed symbol is as dense as the saved one can be.
 */
export const PREVIEW_ALIAS = longestGeneratedAlias('qr')

export function createQrCodeService(options: QrCodeServiceOptions) {
  const { qrCodes, journal, tags } = options
  const getQrCodeOrThrow = orNotFound(qrCodes.findById, 'QR code')

  function assertFits(qr: QrData, alias: string, hasLogo: boolean): void {
    assertPayloadFits(encodeQrPayload(qr, qrTrackingUrl(options.publicUrl, alias)), hasLogo)
  }

  /** The rules of a creation's design (data, colors, fit), before anything is loaded or stored. */
  function checkNewDesign(input: QrCreateInput) {
    const qr = parseQrData(input.type, input.data)
    const background = canonicalColor(input.background, DEFAULT_BACKGROUND)
    const foreground = canonicalColor(input.foreground, DEFAULT_FOREGROUND)
    assertColorsDiffer(background, foreground)
    // Checked with the longest alias a retry may draw: whichever is stored, the symbol fits.
    assertFits(qr, PREVIEW_ALIAS, input.logo !== undefined)
    return { qr, background, foreground }
  }

  /** The rules of an update's design against the stored code (its type, alias and logo). */
  function checkChangedDesign(current: QrCodeRow, input: QrUpdateInput) {
    const qr = parseQrData(current.type as QrType, input.data)
    const background = canonicalColor(input.background, current.background)
    const foreground = canonicalColor(input.foreground, current.foreground)
    assertColorsDiffer(background, foreground)
    const hasLogo = input.logo === undefined ? current.logo !== null : input.logo !== ''
    assertFits(qr, current.alias, hasLogo)
    return { qr, background, foreground }
  }

  return {
    getQrCodeOrThrow,

    /**
     * The image a creation with this body would serve, drawn by the public image's renderer and
     * stored nowhere. Link codes encode a placeholder tracking address at least as long as the real one.
     */
    async previewNewQrCode(accountId: number, input: QrCreateInput, view: QrPreviewOptions) {
      const { qr, background, foreground } = checkNewDesign(input)
      const logo = input.logo === undefined ? null : await options.loadLogo(input.logo, accountId)
      const payload = encodeQrPayload(qr, qrTrackingUrl(options.publicUrl, PREVIEW_ALIAS))
      return renderQrImage({ payload, background, foreground, logo }, view.format, view.size)
    },

    /** The image a code would serve after this update (its real tracking address), stored nowhere. */
    async previewQrCodeUpdate(accountId: number, id: number, input: QrUpdateInput, view: QrPreviewOptions) {
      const current = await getQrCodeOrThrow(accountId, id)
      const { qr, background, foreground } = checkChangedDesign(current, input)
      // An unchanged logo is the stored one: no new fetch, and what is shown is what is served.
      const logo = input.logo === undefined ? current.logo : input.logo === '' ? null : await options.loadLogo(input.logo, accountId)
      const payload = encodeQrPayload(qr, qrTrackingUrl(options.publicUrl, current.alias))
      return renderQrImage({ payload, background, foreground, logo }, view.format, view.size)
    },

    /** A page of codes with their tags; `tagKeys` (tag-names.ts filterKeys) keeps those that carry every one. */
    async listQrCodes(accountId: number, page: PageRequest, tagKeys?: readonly string[]) {
      const ids = tagKeys === undefined ? undefined : await tags.itemsWithAll('qr', accountId, tagKeys)
      const { rows, total } = await qrCodes.listPage(accountId, page, ids)
      const tagsOf = await tags.namesOf('qr', rows.map((row) => row.id))
      return { rows: rows.map((row) => ({ row, tags: tagsOf.get(row.id) ?? [] })), total }
    },

    /** The code's tags' names, by name. */
    tagsOf(id: number): Promise<string[]> {
      return tags.namesOfOne('qr', id)
    },

    async createQrCode(account: AuthenticatedAccount, input: QrCreateInput): Promise<QrCodeRow> {
      await enforcePlanLimit(account, 'qrcodes', () => qrCodes.count(account.id))
      const { qr, background, foreground } = checkNewDesign(input)
      const name = input.name?.trim()
      const tagNames = tags.checkTags(input.tags)
      // Last: fetching a logo is the slow part, and it happens once, here.
      const logo = input.logo === undefined ? null : await options.loadLogo(input.logo, account.id)

      // Each draw is its own transaction: a drawn alias a racing request stored first rolls back only that try.
      return options.aliases.writeWithGeneratedAlias({ use: 'qr' }, (alias) =>
        journal.write(account, async (trx) => {
          const created = await qrCodes.in(trx).insert(account.id, {
            alias,
            name,
            nameForId: (id) => defaultQrName(input.type, id),
            type: input.type,
            data: JSON.stringify(qr.data),
            background,
            foreground,
            logo,
            logoSource: input.logo ?? null,
          })
          const tagChanges = tagNames === undefined ? [] : await tags.setItemTags(trx, account.id, 'qr', created.id, tagNames)
          const record = toQrDetails(created, options.publicUrl, await tags.namesOfOne('qr', created.id, trx))
          return { result: created, changes: [...tagChanges, { action: 'qr.created', resource: 'qr', resourceId: created.id, fields: givenFields(input), record }] }
        }),
      )
    },

    /** `type` cannot change (spec): the data is checked against the stored type. */
    async updateQrCode(account: AuthenticatedAccount, id: number, input: QrUpdateInput): Promise<QrCodeRow> {
      const current = await getQrCodeOrThrow(account.id, id)
      const { qr, background, foreground } = checkChangedDesign(current, input)
      const tagNames = tags.checkTags(input.tags)
      let logo: { bytes: Buffer; source: string } | null | undefined
      if (input.logo === '') logo = null
      else if (input.logo !== undefined) logo = { bytes: await options.loadLogo(input.logo, account.id), source: input.logo }

      return journal.write(account, async (trx) => {
        const updated = await qrCodes.in(trx).update(account.id, id, {
          data: JSON.stringify(qr.data),
          name: input.name?.trim(),
          background: input.background === undefined ? undefined : background,
          foreground: input.foreground === undefined ? undefined : foreground,
          logo,
        })
        if (!updated) throw NotFoundError.of('QR code')
        const tagChanges = tagNames === undefined ? [] : await tags.setItemTags(trx, account.id, 'qr', id, tagNames)
        const record = toQrDetails(updated, options.publicUrl, await tags.namesOfOne('qr', id, trx))
        return { result: updated, changes: [...tagChanges, { action: 'qr.updated', resource: 'qr', resourceId: id, fields: givenFields(input), record }] }
      })
    },

    async deleteQrCode(account: AuthenticatedAccount, id: number): Promise<void> {
      const current = await getQrCodeOrThrow(account.id, id)
      await journal.write(account, async (trx) => {
        const record = toQrDetails(current, options.publicUrl, await tags.namesOfOne('qr', id, trx))
        if (!(await qrCodes.in(trx).delete(account.id, id))) throw NotFoundError.of('QR code')
        return { result: undefined, changes: [{ action: 'qr.deleted', resource: 'qr', resourceId: id, fields: [], record }] }
      })
    },
  }
}

export type QrCodeService = ReturnType<typeof createQrCodeService>
