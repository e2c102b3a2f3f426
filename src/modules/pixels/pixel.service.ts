// Pixel rules: the tag's form per provider, one pixel per provider and tag in an account, plan limits.
import { isUniqueViolation } from '../../db/errors.js'
import type { PixelRow } from '../../db/schema.js'
import type { AuthenticatedAccount } from '../access/authenticated-account.js'
import { enforcePlanLimit } from '../plans/plan-limits.js'
import { isPixelType, normalisePixelTag } from './pixel-tags.js'
import type { PixelRepository } from './pixel.repository.js'
import { toPixelRecord } from './pixel.mapper.js'
import { givenFields, type ChangeJournal } from '../changes/change-journal.js'
import type { Bindable } from '../../db/transactions.js'
import { PIXEL_NAME_RULE, type PixelCreateInput, type PixelUpdateInput } from './pixel.schemas.js'
import { PIXEL_TOPIC, type Announcer } from '../../core/invalidation.js'
import { DuplicateError, NotFoundError, orNotFound } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'
import { trimmedName } from '../../core/text.js'

const DUPLICATE_PIXEL = 'A pixel with this provider and tag already exists.'

export interface PixelServiceOptions {
  pixels: Bindable<PixelRepository>
  journal: ChangeJournal
  /** Told each changed pixel, so that caches of the visits that fire it drop it. */
  invalidation: Announcer
}

export function createPixelService({ pixels, journal, invalidation }: PixelServiceOptions) {
  const announce = (id: number) => invalidation.publish(PIXEL_TOPIC, String(id))

  const getPixelOrThrow = orNotFound(pixels.findById, 'Pixel')

  async function assertTagFree(accountId: number, type: string, tag: string, exceptId?: number) {
    const existing = await pixels.findByTypeAndTag(accountId, type, tag)
    if (existing && existing.id !== exceptId) throw new DuplicateError(DUPLICATE_PIXEL, 'tag')
  }

  /** Two requests racing past the check meet the (account, type, tag) unique constraint. */
  async function translateUniqueViolation<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(DUPLICATE_PIXEL, 'tag')
      throw error
    }
  }

  return {
    getPixelOrThrow,

    listPixels(accountId: number, page: PageRequest) {
      return pixels.listPage(accountId, page)
    },

    async createPixel(account: AuthenticatedAccount, input: PixelCreateInput): Promise<PixelRow> {
      const name = trimmedName(input.name, PIXEL_NAME_RULE, 1)
      const tag = normalisePixelTag(input.type, input.tag)
      await enforcePlanLimit(account, 'pixels', () => pixels.count(account.id))
      await assertTagFree(account.id, input.type, tag)
      return journal.write(account, async (trx) => {
        const pixel = await translateUniqueViolation(() => pixels.in(trx).insert(account.id, { type: input.type, name, tag }))
        return { result: pixel, changes: [{ action: 'pixel.created', resource: 'pixel', resourceId: pixel.id, fields: givenFields(input), record: toPixelRecord(pixel) }] }
      })
    },

    async updatePixel(account: AuthenticatedAccount, id: number, input: PixelUpdateInput): Promise<void> {
      const pixel = await getPixelOrThrow(account.id, id)
      const name = input.name === undefined ? undefined : trimmedName(input.name, PIXEL_NAME_RULE, 1)
      let tag: string | undefined
      if (input.tag !== undefined) {
        // Rows are only written through this service, so the stored type is always a known one.
        if (!isPixelType(pixel.type)) throw new Error(`pixel ${pixel.id} has the unknown type "${pixel.type}"`)
        tag = normalisePixelTag(pixel.type, input.tag)
        await assertTagFree(account.id, pixel.type, tag, id)
      }
      await journal.write(account, async (trx) => {
        const saved = pixels.in(trx)
        if (!(await translateUniqueViolation(() => saved.update(account.id, id, { name, tag })))) throw NotFoundError.of('Pixel')
        const updated = (await saved.findById(account.id, id))!
        return { result: undefined, changes: [{ action: 'pixel.updated', resource: 'pixel', resourceId: id, fields: givenFields(input), record: toPixelRecord(updated) }] }
      })
      announce(id)
    },

    async deletePixel(account: AuthenticatedAccount, id: number): Promise<void> {
      await journal.write(account, async (trx) => {
        const saved = pixels.in(trx)
        const pixel = await saved.findById(account.id, id)
        if (!pixel || !(await saved.delete(account.id, id))) throw NotFoundError.of('Pixel')
        return { result: undefined, changes: [{ action: 'pixel.deleted', resource: 'pixel', resourceId: id, fields: [], record: toPixelRecord(pixel) }] }
      })
      announce(id)
    },
  }
}

export type PixelService = ReturnType<typeof createPixelService>
