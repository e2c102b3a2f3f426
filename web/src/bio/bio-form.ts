// The bio page editor's state and rules: the draft, its client checks (the server's rules of
// decisions §6: Bio pages, so a save is rarely refused), moving blocks, and the request bodies.
import { ALIAS_PATTERN } from '../../../src/core/link-limits'
import { isHttpUrlInput } from '../../../src/core/urls'

/** One link block as the editor holds it; `key` keeps a block's identity (focus, React) while it moves. */
export interface BlockDraft {
  key: number
  title: string
  url: string
}

export interface BioDraft {
  name: string
  alias: string
  description: string
  avatar: string
  blocks: BlockDraft[]
  /** The page's tags by name (new names become tags when saved). */
  tags: string[]
}

/** Field → message; block fields as `blocks.<index>.title|url`, like the server names them. */
export type BioErrors = Record<string, string>

export const MAX_BLOCKS = 100
const ALIAS_RULE = new RegExp(ALIAS_PATTERN)

let lastKey = 0
/** A block with a fresh key. */
export function newBlock(title = '', url = ''): BlockDraft {
  lastKey += 1
  return { key: lastKey, title, url }
}

export const emptyBioDraft = (): BioDraft => ({ name: '', alias: '', description: '', avatar: '', blocks: [], tags: [] })

export function validateBioDraft(draft: BioDraft): BioErrors {
  const errors: BioErrors = {}
  const name = draft.name.trim()
  if (name.length < 2 || name.length > 100) errors.name = 'Use 2 to 100 characters.'
  if (draft.alias !== '' && !ALIAS_RULE.test(draft.alias)) errors.alias = 'Use 3 to 64 letters, digits, _ or -.'
  if (draft.description.length > 500) errors.description = 'Use at most 500 characters.'
  if (draft.avatar.trim() !== '' && !isHttpUrlInput(draft.avatar.trim())) errors.avatar = 'Enter an http or https address, or leave it empty.'
  if (draft.blocks.length > MAX_BLOCKS) errors.blocks = `A page holds at most ${MAX_BLOCKS} blocks.`
  draft.blocks.forEach((block, index) => {
    const title = block.title.trim()
    if (title.length === 0 || title.length > 100) errors[`blocks.${index}.title`] = 'Give the button a title of 1 to 100 characters.'
    if (!isHttpUrlInput(block.url.trim())) errors[`blocks.${index}.url`] = 'Enter an http or https address, like https://example.com.'
  })
  return errors
}

/** The list with the block at `from` moved to `to` (both clamped to the list). */
export function moveBlock<T>(blocks: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(blocks.length - 1, to))
  if (from < 0 || from >= blocks.length || from === target) return [...blocks]
  const next = [...blocks]
  const [moved] = next.splice(from, 1)
  next.splice(target, 0, moved!)
  return next
}

/** How a block is named to screen readers and in button labels: its title, else its position. */
export function blockName(block: Pick<BlockDraft, 'title'>, index: number): string {
  const title = block.title.trim()
  return title ? `"${title}"` : `block ${index + 1}`
}

/** What the live region says after a move. */
export function moveAnnouncement(block: Pick<BlockDraft, 'title'>, to: number, count: number): string {
  return `Moved ${blockName(block, to)} to position ${to + 1} of ${count}.`
}

function blocksBody(draft: BioDraft) {
  return draft.blocks.map((block) => ({ title: block.title.trim(), url: block.url.trim() }))
}

export function toCreateBody(draft: BioDraft) {
  return {
    name: draft.name.trim(),
    ...(draft.alias ? { alias: draft.alias } : {}),
    description: draft.description.trim(),
    ...(draft.avatar.trim() ? { avatar: draft.avatar.trim() } : {}),
    blocks: blocksBody(draft),
    ...(draft.tags.length > 0 ? { tags: draft.tags } : {}),
  }
}

/** Every field is sent: an empty avatar removes it, the blocks replace the list. */
export function toUpdateBody(draft: BioDraft) {
  return { name: draft.name.trim(), alias: draft.alias, description: draft.description.trim(), avatar: draft.avatar.trim(), blocks: blocksBody(draft), tags: draft.tags }
}

/** What the preview endpoint renders (lengths only are checked there). */
export function toPreviewBody(draft: BioDraft) {
  return {
    name: draft.name.slice(0, 100),
    ...(draft.alias ? { alias: draft.alias.slice(0, 64) } : {}),
    description: draft.description.slice(0, 500),
    avatar: draft.avatar.trim().slice(0, 2048),
    blocks: draft.blocks.slice(0, MAX_BLOCKS).map((block) => ({ title: block.title.slice(0, 100), url: block.url.trim().slice(0, 2048) })),
  }
}

export function draftFromDetails(details: { name: string; alias: string; description: string; avatar: string | null; blocks: Array<{ title: string; url: string }>; tags?: string[] }): BioDraft {
  return {
    name: details.name,
    alias: details.alias,
    description: details.description,
    avatar: details.avatar ?? '',
    blocks: details.blocks.map((block) => newBlock(block.title, block.url)),
    tags: details.tags ?? [],
  }
}

