// Many links at once (issue 21: `POST /api/urls/bulk` and imports). Every row is checked as
// `POST /api/url/add` checks one (the link service's `prepareLink`), its alias decided before any
// write (the batch's transaction cannot retry one row alone), then the rows are written in chunks,
// each chunk one journaled transaction with its audit rows (ADR 015): a chunk lands whole or not
// at all. A race lost at the alias index rolls the chunk back and it is decided again.
import { ALIAS_TAKEN, type AliasService } from '../aliases/alias.service.js'
import type { Actor, ChangeJournal } from '../changes/change-journal.js'
import type { LinkService, PreparedLink } from './link.service.js'
import type { LinkCreateInput } from './link.schemas.js'
import type { DB } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import { AppError, DuplicateError, ForbiddenError, ValidationError } from '../../core/errors.js'

/** What happens to a row whose alias another record holds: left out, given another alias, or the whole batch refused. */
export const CONFLICT_CHOICES = ['skip', 'rename', 'fail'] as const
export type ConflictChoice = (typeof CONFLICT_CHOICES)[number]

/** Who writes (the journal's actor) and the plan limits of the account written to. */
export type BatchWriter = Actor & { limits: Record<string, number> }

export interface BatchRow {
  input: LinkCreateInput
  /** The source's creation date (imports), stored text; now when left out. */
  createdAt?: string
}

/** What became of one row, in the order given. */
export type BatchOutcome =
  /** `renamedFrom`: the alias asked for, taken (`taken`) or one of the service's own paths (`reserved`). */
  | { status: 'created'; id: number; alias: string; origin: string | null; renamedFrom?: string; renamedBecause?: 'taken' | 'reserved' }
  /** The account already has this link (same domain and alias): nothing written (imports). */
  | { status: 'existing'; id: number; alias: string }
  | { status: 'refused'; error: AppError }

export interface BatchOptions {
  onConflict: ConflictChoice
  /**
   * The account's own link at the same address (domain and alias) is the same link, not a conflict,
   * and a row without an alias is the account's link to the same destination if it has one (imports run twice).
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
  constructor(readonly row: number, cause: AppError) {
    super(cause.code, `Row ${row + 1}: ${cause.message}`, cause.field)
  }
}

type Decision =
  | { kind: 'done'; outcome: BatchOutcome }
  | { kind: 'write'; prepared: PreparedLink; alias: string; renamedFrom?: string; renamedBecause?: 'taken' | 'reserved'; createdAt?: string }

export function createLinkBatchWriter(links: LinkService, aliases: AliasService, journal: ChangeJournal) {
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
    for (const { host, alias } of chosen) byHost.set(host, [...(byHost.get(host) ?? []), alias])
    const existing = new Map<string, Map<string, { id: number; alias: string }>>()
    const refused = new Map<string, Map<string, AppError>>()
    for (const [host, all] of byHost) {
      const own = new Map<string, { id: number; alias: string }>()
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

  /** Decides every row: refused, already there, or to be written with which alias. */
  async function decide(account: BatchWriter, rows: readonly BatchRow[], options: BatchOptions): Promise<Decision[]> {
    const decisions: Decision[] = []
    const prepared: Array<PreparedLink | AppError> = []
    for (const row of rows) {
      try {
        prepared.push(await links.prepareLink(account.id, row.input))
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        prepared.push(error)
      }
    }
    const facts = await aliasFacts(account.id, rows.flatMap((row, index) => {
      const link = prepared[index]!
      return row.input.custom !== undefined && !(link instanceof AppError) ? [{ host: link.host, alias: row.input.custom }] : []
    }), options)
    // Aliases this batch claims, per host (folded): two rows of one batch cannot share one.
    const claimedByHost = new Map<string, Set<string>>()
    for (const [index, row] of rows.entries()) {
      const link = prepared[index]!
      if (link instanceof AppError) {
        decisions.push({ kind: 'done', outcome: { status: 'refused', error: link } })
        continue
      }
      const claimed = claimedByHost.get(link.host) ?? new Set<string>()
      claimedByHost.set(link.host, claimed)
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
        decisions.push({ kind: 'write', prepared: link, alias, createdAt: row.createdAt })
        continue
      }
      const existing = options.sameAddressIsSameLink ? facts.existing(link.host, custom) : undefined
      if (existing) {
        decisions.push({ kind: 'done', outcome: { status: 'existing', id: existing.id, alias: existing.alias } })
        continue
      }
      const refusal = claimed.has(custom.toLowerCase()) ? new DuplicateError(ALIAS_TAKEN, 'custom') : facts.refusal(link.host, custom)
      const reserved = refusal instanceof ValidationError
      if (!refusal) {
        claimed.add(custom.toLowerCase())
        decisions.push({ kind: 'write', prepared: link, alias: custom, createdAt: row.createdAt })
      } else if (reserved && options.renameReserved) {
        const alias = await renamed(link.host, custom, claimed)
        claimed.add(alias.toLowerCase())
        decisions.push({ kind: 'write', prepared: link, alias, renamedFrom: custom, renamedBecause: 'reserved', createdAt: row.createdAt })
      } else if (options.onConflict === 'fail') {
        throw new BatchConflict(index, refusal)
      } else if (options.onConflict === 'skip') {
        decisions.push({ kind: 'done', outcome: { status: 'refused', error: refusal } })
      } else {
        const alias = await renamed(link.host, custom, claimed)
        claimed.add(alias.toLowerCase())
        decisions.push({ kind: 'write', prepared: link, alias, renamedFrom: custom, renamedBecause: 'taken', createdAt: row.createdAt })
      }
    }
    return decisions
  }

  /** Writes one chunk's decisions in one journaled transaction; answers their outcomes. */
  function writeChunk(actor: Actor, accountId: number, start: number, decisions: Decision[], options: BatchOptions): Promise<BatchOutcome[]> {
    return journal.write(actor, async (trx) => {
      const writes = decisions.flatMap((decision) => (decision.kind === 'write' ? [decision] : []))
      const { ids, changes } = await links.insertPreparedMany(trx, accountId, writes)
      let written = 0
      const outcomes = decisions.map((decision): BatchOutcome => {
        if (decision.kind === 'done') return decision.outcome
        const id = ids[written++]!
        return { status: 'created', id, alias: decision.alias, origin: decision.prepared.origin, ...(decision.renamedFrom ? { renamedFrom: decision.renamedFrom, renamedBecause: decision.renamedBecause } : {}) }
      })
      await options.inChunk?.(trx, { start, outcomes })
      return { result: outcomes, changes }
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
        if (creating > 0 && (await links.countLinks(account.id)) + creating > limit) throw ForbiddenError.planLimit('links', limit)
      }
      for (let start = 0; start < rows.length; start += chunkSize) {
        for (let attempt = 1; ; attempt += 1) {
          try {
            const chunk = decisions.slice(start, start + chunkSize)
            outcomes.push(...(await writeChunk(account, account.id, start, chunk, options)))
            // Every instance's alias cache may hold a miss for a new address.
            for (const decision of chunk) if (decision.kind === 'write') links.announce({ host: decision.prepared.host, alias: decision.alias })
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
