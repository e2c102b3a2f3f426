// Click caps (issue 23, docs/adr/020-link-options.md): how many recorded clicks a capped link has
// had, as this instance knows it without asking the database on the visit path: the count the
// database last told (the link's row as cached, the click writer's counters after each batch)
// plus the clicks this instance has let through since and not yet written. Every click of a
// capped link is taken here when its visit is decided, before any other visit can be, so on one
// instance exactly `limit` visitors reach the destination. On several, an instance learns of the
// others' clicks when it writes a batch of its own for the link or reads the link anew: each may
// let through at most about one batch of clicks too many.
import { createLruCache } from '../../core/lru-cache.js'

/** The counters a written batch left for links: each link's clicks, and how many the batch added. */
export type WrittenLinkCounters = ReadonlyMap<number, { clicks: number; added: number }>

/** A capped link as a visit sees it: its id and its clicks as last read from the database. */
export interface CappedLink {
  id: number
  clicks: number
}

interface Tally {
  /** The link's clicks as the database last told. */
  known: number
  /** Clicks let through by this instance and not yet written. */
  pending: number
}

/** Most capped links tallied at once; a link dropped is tallied anew from its cached row. */
const MAX_TALLIES = 100_000

export function createClickCaps() {
  const tallies = createLruCache<number, Tally>(MAX_TALLIES, Number.POSITIVE_INFINITY)

  function tallyOf(link: CappedLink): Tally {
    let tally = tallies.get(link.id)
    if (!tally) {
      tally = { known: link.clicks, pending: 0 }
      tallies.set(link.id, tally)
    } else if (tally.pending === 0 && link.clicks > tally.known) {
      // Nothing of ours is in flight, so a row read anew (other instances' clicks) is complete.
      // Counters only grow: an older read never lowers what is known.
      tally.known = link.clicks
    }
    return tally
  }

  return {
    /** True when `link` has had `limit` clicks (or more). */
    reached(link: CappedLink, limit: number): boolean {
      const tally = tallyOf(link)
      return tally.known + tally.pending >= limit
    },

    /** Counts a click this instance lets through (and hands to the recorder). */
    take(link: CappedLink): void {
      tallyOf(link).pending += 1
    },

    /** Gives back a click taken whose visit was not sent or that the recorder did not queue. */
    giveBack(linkId: number): void {
      const tally = tallies.get(linkId)
      if (tally && tally.pending > 0) tally.pending -= 1
    },

    /** What the click writer committed: the links' counters now, and how many clicks it wrote of each. */
    written(counters: WrittenLinkCounters): void {
      for (const [linkId, { clicks, added }] of counters) {
        const tally = tallies.get(linkId)
        if (!tally) continue
        tally.known = Math.max(tally.known, clicks)
        // Clicks queued before the link was capped were never taken: never below nothing in flight.
        tally.pending = Math.max(0, tally.pending - added)
      }
    },
  }
}

export type ClickCaps = ReturnType<typeof createClickCaps>
