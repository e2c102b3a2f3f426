// QR code rules: data per type, colors, logo loading, the payload fitting a symbol, plan limits,
// random aliases.
import { randomInt } from 'node:crypto'
import { isUniqueViolation } from '../../db/dialect.js'
import type { QrCodeRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { enforcePlanLimit } from '../accounts/plan-limits.js'
import type { LogoLoader } from './logo-source.js'
import type { QrType } from './qr-code.schemas.js'
import type { QrCodeRepository } from './qr-code.repository.js'
import { parseQrData, storedQrData, type QrData } from './qr-data.js'
import { encodeQrPayload, qrTrackingUrl } from './qr-payload.js'
import { assertPayloadFits, formatRgb, parseRgb } from './qr-render.js'
import { NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'

/** No 0/o, 1/l/i: aliases are read off printed codes and typed by people. */
export const ALIAS_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz'
export const ALIAS_LENGTH = 8
const ALIAS_ATTEMPTS = 5

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

export interface QrCodeInput {
  data: unknown
  background?: string
  foreground?: string
  logo?: string
  name?: string
}

export interface QrCodeServiceOptions {
  publicUrl: string
  loadLogo: LogoLoader
}

/** A random alias of ALIAS_LENGTH characters of ALIAS_ALPHABET. */
export function generateAlias(): string {
  let alias = ''
  for (let index = 0; index < ALIAS_LENGTH; index += 1) alias += ALIAS_ALPHABET[randomInt(ALIAS_ALPHABET.length)]
  return alias
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

export function createQrCodeService(qrCodes: QrCodeRepository, options: QrCodeServiceOptions) {
  async function getQrCodeOrThrow(accountId: number, id: number): Promise<QrCodeRow> {
    const qr = await qrCodes.findById(accountId, id)
    if (!qr) throw NotFoundError.of('QR code')
    return qr
  }

  function assertFits(qr: QrData, alias: string, hasLogo: boolean): void {
    assertPayloadFits(encodeQrPayload(qr, qrTrackingUrl(options.publicUrl, alias)), hasLogo)
  }

  return {
    getQrCodeOrThrow,

    listQrCodes(accountId: number, page: PageRequest) {
      return qrCodes.listPage(accountId, page)
    },

    async createQrCode(account: AuthenticatedAccount, input: QrCodeInput & { type: QrType }): Promise<QrCodeRow> {
      await enforcePlanLimit(account, 'qrcodes', () => qrCodes.count(account.id))
      const qr = parseQrData(input.type, input.data)
      const background = canonicalColor(input.background, DEFAULT_BACKGROUND)
      const foreground = canonicalColor(input.foreground, DEFAULT_FOREGROUND)
      assertColorsDiffer(background, foreground)
      const name = input.name?.trim()
      // Every alias has the same length, so the fit does not depend on which one is drawn.
      assertFits(qr, generateAlias(), input.logo !== undefined)
      // Last: fetching a logo is the slow part, and it happens once, here.
      const logo = input.logo === undefined ? null : await options.loadLogo(input.logo)

      for (let attempt = 1; ; attempt += 1) {
        try {
          return await qrCodes.insert(account.id, {
            alias: generateAlias(),
            name,
            nameForId: (id) => defaultQrName(input.type, id),
            type: input.type,
            data: JSON.stringify(qr.data),
            background,
            foreground,
            logo,
            logoSource: input.logo ?? null,
          })
        } catch (error) {
          // The alias is the table's only unique column: draw another.
          if (!isUniqueViolation(error) || attempt >= ALIAS_ATTEMPTS) throw error
        }
      }
    },

    /** `type` cannot change (spec): the data is checked against the stored type. */
    async updateQrCode(accountId: number, id: number, input: QrCodeInput): Promise<QrCodeRow> {
      const current = await getQrCodeOrThrow(accountId, id)
      const type = current.type as QrType
      const qr = parseQrData(type, input.data)
      const background = canonicalColor(input.background, current.background)
      const foreground = canonicalColor(input.foreground, current.foreground)
      assertColorsDiffer(background, foreground)
      const hasLogo = input.logo === undefined ? current.logo !== null : input.logo !== ''
      assertFits(qr, current.alias, hasLogo)
      let logo: { bytes: Buffer; source: string } | null | undefined
      if (input.logo === '') logo = null
      else if (input.logo !== undefined) logo = { bytes: await options.loadLogo(input.logo), source: input.logo }

      const updated = await qrCodes.update(accountId, id, {
        data: JSON.stringify(qr.data),
        name: input.name?.trim(),
        background: input.background === undefined ? undefined : background,
        foreground: input.foreground === undefined ? undefined : foreground,
        logo,
      })
      if (!updated) throw NotFoundError.of('QR code')
      return updated
    },

    async deleteQrCode(accountId: number, id: number): Promise<void> {
      if (!(await qrCodes.delete(accountId, id))) throw NotFoundError.of('QR code')
    },
  }
}

export type QrCodeService = ReturnType<typeof createQrCodeService>
