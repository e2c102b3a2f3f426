// Bio page rules: alias namespace shared with short links, reserved words, generated aliases,
// block URLs, plan limits, ownership, and telling every instance's alias cache about changes.
import { randomInt } from 'node:crypto'
import { isUniqueViolation } from '../../db/dialect.js'
import type { BioPageRow } from '../../db/schema.js'
import { aliasKey, isReservedAlias } from '../aliases/alias-namespace.js'
import type { AuthenticatedAccount } from '../accounts/account.service.js'
import { enforcePlanLimit } from '../accounts/plan-limits.js'
import { isHttpUrl, parseStoredBlocks, type BioBlock } from './bio-page-blocks.js'
import type { BioPageRepository, BioPageValues } from './bio-page.repository.js'
import { BIO_BLOCK_TITLE_RULE, BIO_NAME_RULE, BIO_URL_RULE, type BioPageCreateInput, type BioPageUpdateInput } from './bio-page.schemas.js'
import { ALIAS_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import { DuplicateError, NotFoundError, ValidationError } from '../../core/errors.js'
import type { PageRequest } from '../../core/paging.js'

const ALIAS_RESERVED = 'This alias is reserved. Please choose another one.'
const ALIAS_TAKEN = 'That alias is taken. Please choose another one.'

/** No 0/o, 1/l/i: generated aliases are read aloud and typed by people. */
export const GENERATED_ALIAS_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz'
export const GENERATED_ALIAS_LENGTH = 6
const GENERATION_ATTEMPTS = 10

/** A random alias of GENERATED_ALIAS_LENGTH unambiguous characters. */
export function generateBioAlias(): string {
  let alias = ''
  for (let index = 0; index < GENERATED_ALIAS_LENGTH; index += 1) alias += GENERATED_ALIAS_ALPHABET[randomInt(GENERATED_ALIAS_ALPHABET.length)]
  return alias
}

function cleanName(name: string): string {
  const trimmed = name.trim()
  // The schema counted the untrimmed text; "  a " must not slip under the minimum.
  if (trimmed.length < 2) throw ValidationError.field('name', BIO_NAME_RULE)
  return trimmed
}

function cleanAvatar(avatar: string): string | null {
  if (avatar === '') return null
  if (!isHttpUrl(avatar)) throw ValidationError.field('avatar', BIO_URL_RULE)
  return avatar
}

/** Trims titles and checks that each URL really parses as http(s): the schema only saw its text. */
function cleanBlocks(blocks: BioBlock[]): BioBlock[] {
  return blocks.map((block, index) => {
    const title = block.title.trim()
    if (title.length === 0) throw ValidationError.field(`blocks.${index}.title`, BIO_BLOCK_TITLE_RULE)
    if (!isHttpUrl(block.url)) throw ValidationError.field(`blocks.${index}.url`, BIO_URL_RULE)
    // Only the two known keys are stored: unknown fields are never kept.
    return { title, url: block.url }
  })
}

export interface BioPageServiceOptions {
  /** Draws a candidate alias when the client gives none (tests pass a fixed sequence). */
  generateAlias?: () => string
}

export function createBioPageService(pages: BioPageRepository, invalidation: InvalidationBus, options: BioPageServiceOptions = {}) {
  const drawAlias = options.generateAlias ?? generateBioAlias

  async function getBioPageOrThrow(accountId: number, id: number): Promise<BioPageRow> {
    const page = await pages.findById(accountId, id)
    if (!page) throw NotFoundError.of('Bio page')
    return page
  }

  async function assertAliasAvailable(alias: string, exceptBioPageId?: number): Promise<void> {
    if (isReservedAlias(alias)) throw new ValidationError(ALIAS_RESERVED)
    if (await pages.isAliasTaken(alias, exceptBioPageId)) throw new DuplicateError(ALIAS_TAKEN)
  }

  /** Two requests racing past the check meet the table's unique alias. */
  async function translateAliasViolation<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateError(ALIAS_TAKEN)
      throw error
    }
  }

  async function insertWithGeneratedAlias(accountId: number, values: Omit<BioPageValues, 'alias'>): Promise<BioPageRow> {
    for (let attempt = 1; ; attempt += 1) {
      const alias = drawAlias()
      const usable = !isReservedAlias(alias) && !(await pages.isAliasTaken(alias))
      try {
        if (usable) return await pages.insert(accountId, { ...values, alias })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
      }
      if (attempt >= GENERATION_ATTEMPTS) throw new Error('could not draw a free bio page alias')
    }
  }

  function announce(...aliases: string[]): void {
    for (const alias of new Set(aliases)) invalidation.publish(ALIAS_TOPIC, aliasKey('', alias))
  }

  return {
    getBioPageOrThrow,

    listBioPages(accountId: number, page: PageRequest) {
      return pages.listPage(accountId, page)
    },

    async createBioPage(account: AuthenticatedAccount, input: BioPageCreateInput): Promise<BioPageRow> {
      const values = {
        name: cleanName(input.name),
        description: input.description?.trim() ?? '',
        avatar: input.avatar === undefined ? null : cleanAvatar(input.avatar),
        blocks: cleanBlocks(input.blocks ?? []),
      }
      await enforcePlanLimit(account, 'bio', () => pages.count(account.id))
      let created: BioPageRow
      if (input.alias === undefined) {
        created = await insertWithGeneratedAlias(account.id, values)
      } else {
        const alias = input.alias
        await assertAliasAvailable(alias)
        created = await translateAliasViolation(() => pages.insert(account.id, { ...values, alias }))
      }
      announce(created.alias)
      return created
    },

    async updateBioPage(accountId: number, id: number, input: BioPageUpdateInput): Promise<BioPageRow> {
      const current = await getBioPageOrThrow(accountId, id)
      const alias = input.alias ?? current.alias
      if (alias !== current.alias) await assertAliasAvailable(alias, id)
      const values: BioPageValues = {
        alias,
        name: input.name === undefined ? current.name : cleanName(input.name),
        description: input.description === undefined ? current.description : input.description.trim(),
        avatar: input.avatar === undefined ? current.avatar : cleanAvatar(input.avatar),
        blocks: input.blocks === undefined ? parseStoredBlocks(current.blocks) : cleanBlocks(input.blocks),
      }
      const updated = await translateAliasViolation(() => pages.update(accountId, id, values))
      if (!updated) throw NotFoundError.of('Bio page')
      announce(current.alias, updated.alias)
      return updated
    },

    async deleteBioPage(accountId: number, id: number): Promise<void> {
      const deleted = await pages.delete(accountId, id)
      if (!deleted) throw NotFoundError.of('Bio page')
      announce(deleted.alias)
    },
  }
}

export type BioPageService = ReturnType<typeof createBioPageService>
