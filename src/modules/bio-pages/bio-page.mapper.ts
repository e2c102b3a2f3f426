// Bio page rows to API records; every URL absolute (decisions §5).
import type { BioPageRow } from '../../db/schema.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import { parseStoredBlocks } from './bio-page-blocks.js'

/** The public address of a bio page: `{base}/{alias}` (decisions §6), never on a branded domain. */
export function bioPageUrl(publicUrl: string, alias: string): string {
  return shortUrl(publicUrl, null, alias)
}

export function toBioPageListEntry(page: BioPageRow & { clicks: number | string | null }, publicUrl: string, tags: string[]) {
  // PostgreSQL answers a bigint counter as text.
  return { id: page.id, alias: page.alias, name: page.name, url: bioPageUrl(publicUrl, page.alias), clicks: Number(page.clicks ?? 0), date: page.created_at, tags }
}

export function toBioPageDetails(page: BioPageRow, publicUrl: string, tags: string[]) {
  return {
    id: page.id,
    alias: page.alias,
    name: page.name,
    description: page.description,
    avatar: page.avatar,
    url: bioPageUrl(publicUrl, page.alias),
    blocks: parseStoredBlocks(page.blocks),
    date: page.created_at,
    updated: page.updated_at,
    tags,
  }
}
