// SQL of the root namespace: who holds an alias at `{origin}/{alias}`. Short links live on their
// host ('' = PUBLIC_URL's host, else a branded domain's hostname); bio pages on the main host only.
// Not scoped by account: an alias on a host is one address, whoever owns it.
import type { DB } from '../../db/database.js'

/** The record an alias belongs to: excluded when it keeps or re-cases its own alias. */
export interface AliasHolder {
  kind: 'link' | 'bio'
  id: number
}

export function createAliasRepository(db: DB) {
  return {
    /**
     * True when a link on `host`, or on the main host a bio page, other than `except` holds `alias`
     * in any letter case. One query; each side is a look-up in the lower(alias) unique index
     * (migration 004), the same folding the database enforces.
     */
    async isAliasTaken(host: string, alias: string, except?: AliasHolder): Promise<boolean> {
      // Aliases are ASCII (ALIAS_PATTERN), where JavaScript's and both databases' lower() agree.
      const folded = alias.toLowerCase()
      let links = db.selectFrom('links').select('id').where('host', '=', host).where((eb) => eb(eb.fn<string>('lower', ['alias']), '=', folded))
      if (except?.kind === 'link') links = links.where('id', '!=', except.id)
      if (host !== '') return (await links.limit(1).executeTakeFirst()) !== undefined
      let pages = db.selectFrom('bio_pages').select('id').where((eb) => eb(eb.fn<string>('lower', ['alias']), '=', folded))
      if (except?.kind === 'bio') pages = pages.where('id', '!=', except.id)
      return (await links.unionAll(pages).limit(1).executeTakeFirst()) !== undefined
    },

    /**
     * The aliases among `aliases` (folded) that a link on `host`, or on the main host a bio page,
     * holds in any letter case: `isAliasTaken` for many at once (a batch's rows, one query per 500).
     */
    async takenAmong(host: string, aliases: readonly string[]): Promise<Set<string>> {
      const taken = new Set<string>()
      const folded = [...new Set(aliases.map((alias) => alias.toLowerCase()))]
      for (let start = 0; start < folded.length; start += 500) {
        const some = folded.slice(start, start + 500)
        const links = db.selectFrom('links').select((eb) => eb.fn<string>('lower', ['alias']).as('folded')).where('host', '=', host).where((eb) => eb(eb.fn<string>('lower', ['alias']), 'in', some))
        const rows = host !== ''
          ? await links.execute()
          : await links.unionAll(db.selectFrom('bio_pages').select((eb) => eb.fn<string>('lower', ['alias']).as('folded')).where((eb) => eb(eb.fn<string>('lower', ['alias']), 'in', some))).execute()
        for (const row of rows) taken.add(row.folded)
      }
      return taken
    },
  }
}

export type AliasRepository = ReturnType<typeof createAliasRepository>
