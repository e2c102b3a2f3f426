// Many links at once (issue 21: `POST /api/urls/bulk` and imports). Every row is checked as
// `POST /api/url/add` checks one (link-creation.ts `checkNewLink`), its alias decided before any
// write (the batch's transaction cannot retry one row alone), then the rows are written in chunks,
// each chunk one journaled transaction with its audit rows (ADR 015): a chunk lands whole or not
// at all. A race lost at the alias index rolls the chunk back and it is decided again.
import { ALIAS_TAKEN, type AliasService } from '../aliases/alias.service.js'
import type { Actor, ChangeJournal } from '../changes/change-journal.js'
import type { LinkCreation, NewLink } from './link-creation.js'
import type { LinkChanges } from './link-changes.js'
import type { LinkRepository } from './link.repository.js'
import type { LinkCreateInput } from './link.schemas.js'
import type { DB } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import { loopShare } from '../../core/loop-share.js'
import { AppError, DuplicateError, ForbiddenError } from '../../core/errors.js'

/** What happens to a row whose alias another record holds: left out, given another alias, or the whole batch refused. */
export const CONFLICT_CHOICES = ['skip', 'rename', 'fail'] as const
export type ConflictChoice = (typeof CONFLICT_CHOICES)[number]

/** Who writes (the journal's actor) and the plan limits of the account written to. */
export type BatchWriter = Actor & { limits: Record<string, number> }

export interface BatchRow {
  input: LinkCreateInput
  /** The source's creation date (imports), stored text; now when left out. */
  createdAt?: string
  /**
   * Stored as they are, not checked as a client's input (imports): the source's password hash
   * (bcrypt, verified as it is and re-hashed at the first right password) and its expiry, which
   * may already have passed (the link stays expired, as it was there).
   */
  stored?: { passwordHash?: string; expiresAt?: string }
}

/**
 * Why a row's alias could not be had as given: reserved here, held by another record, spelt like
 * another link's alias but for letter case (aliases are case-insensitive, ADR 006: `holder` is
 * that alias), or the account's own link at that address goes elsewhere (`url`, imports).
 */
export type AliasConflict =
  | { kind: 'reserved' }
  | { kind: 'taken' }
  | { kind: 'case'; holder: string }
  | { kind: 'destination'; holder: string; url: string }

/** What became of one row, in the order given. */
export type BatchOutcome =
  | { status: 'created'; id: number; alias: string; origin: string | null; renamedFrom?: string; conflict?: AliasConflict }
  /** The account already has this link (same domain, alias and destination): nothing written (imports). */
  | { status: 'existing'; id: number; alias: string }
  | { status: 'refused'; error: AppError; conflict?: AliasConflict }

export interface BatchOptions {
  onConflict: ConflictChoice
  /**
   * The account's own link at the same address (domain and alias, spelt alike) to the same
   * destination is the same link, not a conflict, and a row without an alias is the account's link
   * to the same destination if it has one (imports run twice). Its link at that address to another
   * destination, or at an alias differing only in letter case, is a conflict (`onConflict`).
   */
  sameAddressIsSameLink?: boolean
  /**
   * A row whose alias is one of the service's own paths gets another alias whatever `onConflict`
   * says (imports, ADR 028: a source's link is never left behind for a word of ours).
   */
  renameReserved?: boolean
  /** Rows per transaction. */
  chunkSize?: number
  /** Runs in each chunk's transaction after its links (an import's progress): lands with them or not at all. */
  inChunk?: (trx: DB, chunk: { start: number; outcomes: BatchOutcome[] }) => Promise<void>
}

/** The batch refused as a whole (`fail` on a conflict): which row, and why. */
export class BatchConflict extends AppError {
  constructor(readonly row: number, cause: AppError, readonly conflict?: AliasConflict) {
    super(cause.code, `Row ${row + 1}: ${cause.message}`, cause.field)
  }
}

type Decision =
  | { kind: 'done'; outcome: BatchOutcome }
  | { kind: 'write'; link: NewLink; alias: string; renamedFrom?: string; conflict?: AliasConflict; createdAt?: string }

export interface LinkBatchWriterOptions {
  /** The account's links already there (imports) and their count (the plan's limit). */
  links: Pick<LinkRepository, 'count' | 'findByAliases' | 'findByUrl'>
  creation: LinkCreation
  changes: Pick<LinkChanges, 'announce'>
  aliases: AliasService
  journal: ChangeJournal
}

export function createLinkBatchWriter({ links, creation, changes, aliases, journal }: LinkBatchWriterOptions) {
  /** A free alias near `alias`: `alias-2`, `alias-3`, … then a drawn one. */
  async function renamed(host: string, alias: string, claimed: Set<string>): Promise<string> {
    for (let suffix = 2; suffix <= 20; suffix += 1) {
      const candidate = `${alias.slice(0, 60)}-${suffix}`
      if (!claimed.has(candidate.toLowerCase()) && !(await aliases.refusalOf(host, candidate, 'custom'))) return candidate
    }
    return aliases.drawFreeAlias({ use: 'link', host }, claimed)
  }

  /**
   * What the database says of the rows' chosen aliases, per host, asked a few hundred at a time
   * (not a query or two per row): the account's own links at those addresses (imports) and the
   * aliases refused there (reserved, or held by another record).
   */
  async function aliasFacts(accountId: number, chosen: ReadonlyArray<{ host: string; alias: string }>, options: BatchOptions) {
    const byHost = new Map<string, string[]>()
    for (const { host, alias } of chosen) {
      const aliasesOfHost = byHost.get(host)
      if (aliasesOfHost) aliasesOfHost.push(alias)
      else byHost.set(host, [alias])
    }
    const existing = new Map<string, Map<string, { id: number; alias: string; url: string }>>()
    const refused = new Map<string, Map<string, AppError>>()
    for (const [host, all] of byHost) {
      const own = new Map<string, { id: number; alias: string; url: string }>()
      if (options.sameAddressIsSameLink) {
        for (let start = 0; start < all.length; start += 500) for (const [folded, link] of await links.findByAliases(accountId, host, all.slice(start, start + 500))) own.set(folded, link)
      }
      existing.set(host, own)
      refused.set(host, await aliases.refusalsOf(host, all.filter((alias) => !own.has(alias.toLowerCase())), 'custom'))
    }
    return {
      existing: (host: string, alias: string) => existing.get(host)?.get(alias.toLowerCase()),
      refusal: (host: string, alias: string) => refused.get(host)?.get(alias.toLowerCase()) ?? null,
    }
  }

  /**
   * Why `custom` cannot be had as given, or null: the account's own link there (`own`: another
   * spelling, or another destination), an earlier row of the batch in another spelling
   * (`claimedAs`), reserved, or held by another record.
   */
  function conflictOf(custom: string, own: { alias: string; url: string } | undefined, claimedAs: string | undefined, host: string, facts: { refusal: (host: string, alias: string) => AppError | null }): AliasConflict | null {
    if (own) return own.alias === custom ? { kind: 'destination', holder: own.alias, url: own.url } : { kind: 'case', holder: own.alias }
    if (claimedAs !== undefined) return claimedAs === custom ? { kind: 'taken' } : { kind: 'case', holder: claimedAs }
    const refusal = facts.refusal(host, custom)
    if (!refusal) return null
    return refusal instanceof DuplicateError ? { kind: 'taken' } : { kind: 'reserved' }
  }

  /** The account's link at one of the addresses `renamed` gives `alias` first (`alias-2` … `alias-20`) whose destination is `url`. */
  async function renamedBefore(accountId: number, host: string, alias: string, url: string): Promise<{ id: number; alias: string } | undefined> {
    const candidates = Array.from({ length: 19 }, (_, index) => `${alias.slice(0, 60)}-${index + 2}`)
    const found = await links.findByAliases(accountId, host, candidates)
    for (const candidate of candidates) {
      const link = found.get(candidate.toLowerCase())
      if (link && link.url === url) return { id: link.id, alias: link.alias }
    }
    return undefined
  }

  /** Decides every row: refused, already there, or to be written with which alias. */
  async function decide(account: BatchWriter, rows: readonly BatchRow[], options: BatchOptions): Promise<Decision[]> {
    const decisions: Decision[] = []
    const checked: Array<NewLink | AppError> = []
    // SQLite answers synchronously, so a batch's awaits alone never let a request in (a 100,000-row
    // import held every request for minutes): every row is a step that may give way (core/loop-share.ts).
    const pace = loopShare.pacer()
    for (const row of rows) {
      await pace()
      try {
        const link = await creation.checkNewLink(account.id, row.input)
        if (row.stored?.passwordHash !== undefined) link.values.passwordHash = row.stored.passwordHash
        if (row.stored?.expiresAt !== undefined) link.values.expiresAt = row.stored.expiresAt
        checked.push(link)
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        checked.push(error)
      }
    }
    const facts = await aliasFacts(account.id, rows.flatMap((row, index) => {
      const link = checked[index]!
      return row.input.custom !== undefined && !(link instanceof AppError) ? [{ host: link.host, alias: row.input.custom }] : []
    }), options)
    // Aliases this batch claims, per host (folded, with the spelling that claimed it): two rows of one batch cannot share one.
    const claimedByHost = new Map<string, Set<string>>()
    const spellingByHost = new Map<string, Map<string, string>>()
    for (const [index, row] of rows.entries()) {
      await pace()
      const link = checked[index]!
      if (link instanceof AppError) {
        decisions.push({ kind: 'done', outcome: { status: 'refused', error: link } })
        continue
      }
      const claimed = claimedByHost.get(link.host) ?? new Set<string>()
      claimedByHost.set(link.host, claimed)
      const spellings = spellingByHost.get(link.host) ?? new Map<string, string>()
      spellingByHost.set(link.host, spellings)
      const custom = row.input.custom
      if (custom === undefined) {
        // Without an alias, an import's row is the link the account already has to the same destination.
        const existing = options.sameAddressIsSameLink ? await links.findByUrl(account.id, link.host, link.values.url) : undefined
        if (existing) {
          decisions.push({ kind: 'done', outcome: { status: 'existing', id: existing.id, alias: existing.alias } })
          continue
        }
        const alias = await aliases.drawFreeAlias({ use: 'link', host: link.host }, claimed)
        claimed.add(alias.toLowerCase())
        decisions.push({ kind: 'write', link, alias, createdAt: row.createdAt })
        continue
      }
      const folded = custom.toLowerCase()
      const own = options.sameAddressIsSameLink ? facts.existing(link.host, custom) : undefined
      if (own && own.alias === custom && own.url === link.values.url) {
        decisions.push({ kind: 'done', outcome: { status: 'existing', id: own.id, alias: own.alias } })
        continue
      }
      const conflict = conflictOf(custom, own, spellings.get(folded) ?? (claimed.has(folded) ? custom : undefined), link.host, facts)
      if (!conflict) {
        claimed.add(folded)
        spellings.set(folded, custom)
        decisions.push({ kind: 'write', link, alias: custom, createdAt: row.createdAt })
        continue
      }
      const refusal = (own ? null : facts.refusal(link.host, custom)) ?? new DuplicateError(ALIAS_TAKEN, 'custom')
      // A source's link is never left behind for a word of ours (ADR 028): renamed, whatever onConflict says.
      const choice = conflict.kind === 'reserved' && options.renameReserved ? 'rename' : options.onConflict
      if (choice === 'fail') throw new BatchConflict(index, refusal, conflict)
      if (choice === 'skip') {
        decisions.push({ kind: 'done', outcome: { status: 'refused', error: refusal, conflict } })
        continue
      }
      // Renamed by an earlier run of the same import: the account's link at a renamed address to the same destination.
      const before = options.sameAddressIsSameLink ? await renamedBefore(account.id, link.host, custom, link.values.url) : undefined
      if (before) {
        decisions.push({ kind: 'done', outcome: { status: 'existing', id: before.id, alias: before.alias } })
        continue
      }
      const alias = await renamed(link.host, custom, claimed)
      claimed.add(alias.toLowerCase())
      spellings.set(alias.toLowerCase(), alias)
      decisions.push({ kind: 'write', link, alias, renamedFrom: custom, conflict, createdAt: row.createdAt })
    }
    return decisions
  }

  /** Writes one chunk's decisions in one journaled transaction; answers their outcomes. */
  function writeChunk(actor: Actor, accountId: number, start: number, decisions: Decision[], options: BatchOptions): Promise<BatchOutcome[]> {
    return journal.write(actor, async (trx) => {
      const writes = decisions.flatMap((decision) => (decision.kind === 'write' ? [decision] : []))
      const { ids, changes: created } = await creation.insertNewLinks(trx, accountId, writes)
      let written = 0
      const outcomes = decisions.map((decision): BatchOutcome => {
        if (decision.kind === 'done') return decision.outcome
        const id = ids[written++]!
        return { status: 'created', id, alias: decision.alias, origin: decision.link.origin, ...(decision.renamedFrom ? { renamedFrom: decision.renamedFrom, conflict: decision.conflict } : {}) }
      })
      await options.inChunk?.(trx, { start, outcomes })
      return { result: outcomes, changes: created }
    })
  }

  return {
    /**
     * Creates the rows' links; answers each row's outcome in order. The plan's link limit counts
     * the batch as a whole: when the links to create do not all fit, none is written (403).
     */
    async writeLinks(account: BatchWriter, rows: readonly BatchRow[], options: BatchOptions): Promise<BatchOutcome[]> {
      const chunkSize = options.chunkSize ?? 200
      const outcomes: BatchOutcome[] = []
      let decisions = await decide(account, rows, options)
      const limit = account.limits.links
      if (limit !== undefined) {
        const creating = decisions.filter((decision) => decision.kind === 'write').length
        if (creating > 0 && (await links.count(account.id)) + creating > limit) throw ForbiddenError.planLimit('links', limit)
      }
      const pace = loopShare.pacer()
      for (let start = 0; start < rows.length; start += chunkSize) {
        // Between chunks the batch may give way: requests wait for one chunk at most, never the batch.
        await pace()
        for (let attempt = 1; ; attempt += 1) {
          try {
            const chunk = decisions.slice(start, start + chunkSize)
            outcomes.push(...(await writeChunk(account, account.id, start, chunk, options)))
            // Every instance's alias cache may hold a miss for a new address.
            for (const decision of chunk) if (decision.kind === 'write') changes.announce({ host: decision.link.host, alias: decision.alias })
            break
          } catch (error) {
            // Another writer took one of the chunk's aliases since it was decided: decide the chunk again.
            if (!isUniqueViolation(error) || attempt === 3) throw error
            const again = await decide(account, rows.slice(start, start + chunkSize), options)
            decisions = [...decisions.slice(0, start), ...again, ...decisions.slice(start + chunkSize)]
          }
        }
      }
      return outcomes
    },
  }
}

export type LinkBatchWriter = ReturnType<typeof createLinkBatchWriter>
