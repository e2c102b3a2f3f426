// The rules of every alias a record claims: reserved words refused, one holder per address in any
// letter case, generated aliases drawn again on collision a bounded number of times, and a race
// lost at the database's unique index answered like the check before it (decisions §6).
import { ConflictError, DuplicateError, ValidationError } from '../../core/errors.js'
import { isUniqueViolation } from '../../db/errors.js'
import { drawRandomAlias, GENERATED_ALIAS_ALPHABET, GENERATED_ALIAS_LENGTH, type AliasGenerator, type AliasUse } from './alias-generator.js'
import { isReservedAlias } from './alias-namespace.js'
import type { AliasHolder, AliasRepository } from './alias.repository.js'

export const ALIAS_RESERVED = 'This alias is reserved. Please choose another one.'
export const ALIAS_TAKEN = 'That alias is taken. Please choose another one.'

/**
 * Draws per generated alias. A draw lands on a taken alias with the probability that the namespace
 * is full at that length, and each retry is one character longer (31 times emptier), so five draws
 * fail together only in a namespace crowded far beyond any real use, or under a broken generator.
 */
export const GENERATION_ATTEMPTS = 5

/** Where a generated alias goes: a link on its host, a bio page (main host), a QR code (`/qr/{alias}`). */
export type GeneratedAliasTarget = { use: 'link'; host: string } | { use: 'bio' } | { use: 'qr' }

/** The host of bio pages: they are served at `{PUBLIC_URL}/{alias}` only. */
export const BIO_PAGE_HOST = ''

/** The longest alias a generation for `use` may draw (its last retry). */
export function longestGeneratedAlias(use: AliasUse): string {
  return GENERATED_ALIAS_ALPHABET.charAt(0).repeat(GENERATED_ALIAS_LENGTH[use] + GENERATION_ATTEMPTS - 1)
}

export interface AliasServiceOptions {
  /** Which aliases are taken on each host, by links and bio pages alike. */
  namespace: AliasRepository
  /** Replaces the random draw (tests force collisions with it). */
  drawAlias?: AliasGenerator
}

export function createAliasService(options: AliasServiceOptions) {
  const { namespace } = options
  const drawAlias = options.drawAlias ?? drawRandomAlias

  /** Refuses a reserved word (400) or an alias another record holds on `host` (400 duplicate), naming `field`. */
  async function assertAliasAvailable(host: string, alias: string, holder: AliasHolder | undefined, field: string): Promise<void> {
    if (isReservedAlias(alias)) throw new ValidationError(ALIAS_RESERVED, field)
    if (await namespace.isAliasTaken(host, alias, holder)) throw new DuplicateError(ALIAS_TAKEN, field)
  }

  /** Whether a drawn alias may be tried at all; QR aliases have only their table's unique index. */
  async function isDrawUsable(target: GeneratedAliasTarget, alias: string): Promise<boolean> {
    if (isReservedAlias(alias)) return false
    if (target.use === 'qr') return true
    return !(await namespace.isAliasTaken(target.use === 'link' ? target.host : BIO_PAGE_HOST, alias))
  }

  return {
    /** Why `alias` cannot be claimed on `host` now (reserved, or held by another record), or null when it can. */
    async refusalOf(host: string, alias: string, field: string): Promise<ValidationError | DuplicateError | null> {
      try {
        await assertAliasAvailable(host, alias, undefined, field)
        return null
      } catch (error) {
        if (error instanceof ValidationError || error instanceof DuplicateError) return error
        throw error
      }
    },

    /** `refusalOf` for many aliases on `host` at once (a batch's rows): by folded alias, only those refused. */
    async refusalsOf(host: string, aliases: readonly string[], field: string): Promise<Map<string, ValidationError | DuplicateError>> {
      const refusals = new Map<string, ValidationError | DuplicateError>()
      for (const alias of aliases) if (isReservedAlias(alias)) refusals.set(alias.toLowerCase(), new ValidationError(ALIAS_RESERVED, field))
      for (const folded of await namespace.takenAmong(host, aliases.filter((alias) => !refusals.has(alias.toLowerCase())))) refusals.set(folded, new DuplicateError(ALIAS_TAKEN, field))
      return refusals
    },

    /**
     * A drawn alias free at the time of asking, for writes that cannot retry one row alone (a batch
     * in one transaction: it retries whole). Throws ConflictError.aliasesExhausted() like a generation.
     */
    async drawFreeAlias(target: GeneratedAliasTarget, taken: ReadonlySet<string> = new Set()): Promise<string> {
      for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt += 1) {
        const alias = drawAlias(GENERATED_ALIAS_LENGTH[target.use] + attempt)
        if (!taken.has(alias.toLowerCase()) && (await isDrawUsable(target, alias))) return alias
      }
      throw ConflictError.aliasesExhausted()
    },

    /**
     * Checks the alias a client chose, then runs `write`. Two requests can both pass the check: the
     * loser meets the unique index and gets the same "taken" answer as the check gives. `field` is
     * the request field that carries the alias (`custom` for links, `alias` for bio pages).
     */
    async writeWithChosenAlias<T>(chosen: { host: string; alias: string; field: string; holder?: AliasHolder }, write: () => Promise<T>): Promise<T> {
      const { host, alias, field, holder } = chosen
      await assertAliasAvailable(host, alias, holder, field)
      try {
        return await write()
      } catch (error) {
        // Callers' writes set no other value a racing request could claim first: a violation is the alias's.
        if (isUniqueViolation(error)) throw new DuplicateError(ALIAS_TAKEN, field)
        throw error
      }
    },

    /**
     * Runs `write` with drawn aliases until one is stored: a drawn alias that is reserved or taken,
     * or that a racing request stores first, means another draw, one character longer. Throws
     * ConflictError.aliasesExhausted() after GENERATION_ATTEMPTS draws.
     */
    async writeWithGeneratedAlias<T>(target: GeneratedAliasTarget, write: (alias: string) => Promise<T>): Promise<T> {
      for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt += 1) {
        const alias = drawAlias(GENERATED_ALIAS_LENGTH[target.use] + attempt)
        if (!(await isDrawUsable(target, alias))) continue
        try {
          return await write(alias)
        } catch (error) {
          if (!isUniqueViolation(error)) throw error
        }
      }
      throw ConflictError.aliasesExhausted()
    },
  }
}

export type AliasService = ReturnType<typeof createAliasService>
