// The tag filter and chips of the dashboard's lists (links, QR codes, bio pages; issue 23): a
// select that adds a tag to the filter (`?tag=a&tag=b`: items carrying every one), the chips of
// the tags the list is narrowed to, and an item's tags as buttons that narrow the list to them.
import { useSearchParams } from 'react-router'
import { useAllTags } from './tag-queries'
import { chipStyle } from './tag-rules'
import './tags.css'

/** The tags a list is narrowed to, read from `?tag=`. */
export function tagsOf(params: URLSearchParams): string[] {
  return params.getAll('tag').filter((tag) => tag.trim() !== '')
}

/** The filter's tags in the address (`?tag=…`, page 1) for lists whose other state is only the page. */
export function useTagParams(): [string[], (tags: string[]) => void] {
  const [params, setParams] = useSearchParams()
  return [tagsOf(params), (tags) => setParams(new URLSearchParams(tags.map((tag) => ['tag', tag])))]
}

interface TagFilterProps {
  /** The select's id (its label points at it). */
  id: string
  chosen: string[]
  onChange(tags: string[]): void
}

/** The "Tag" select of a list's filters. */
export function TagFilterSelect({ id, chosen, onChange }: TagFilterProps) {
  const tags = useAllTags()
  return (
    <div className="field">
      <label htmlFor={id}>Tag</label>
      <select id={id} value="" onChange={(event) => event.target.value && onChange([...chosen, event.target.value])}>
        <option value="">{chosen.length > 0 ? 'Add a tag…' : 'All tags'}</option>
        {tags.data?.filter((tag) => !chosen.some((name) => name.toLowerCase() === tag.name.toLowerCase())).map((tag) => <option key={tag.id} value={tag.name}>{tag.name}</option>)}
      </select>
    </div>
  )
}

/** The chips of the tags a list is narrowed to, each with its × to take it off. */
export function ActiveTagChips({ chosen, onChange }: Omit<TagFilterProps, 'id'>) {
  const tags = useAllTags()
  if (chosen.length === 0) return null
  return (
    <ul className="tag-chips active-tags" aria-label="Tags the list is narrowed to">
      {chosen.map((tag) => (
        <li key={tag} className="tag-chip" style={chipStyle(tags.data?.find((entry) => entry.name.toLowerCase() === tag.toLowerCase())?.color)}>
          #{tag}
          <button type="button" className="tag-remove" aria-label={`Stop filtering by tag ${tag}`} onClick={() => onChange(chosen.filter((name) => name !== tag))}>×</button>
        </li>
      ))}
    </ul>
  )
}

interface ItemTagsProps {
  tags: string[]
  chosen: string[]
  onChange(tags: string[]): void
  /** What the list holds, for the buttons' names: "links", "QR codes", "bio pages". */
  items: string
}

/** An item's tags as badges; each narrows the list to it. */
export function ItemTagBadges({ tags: names, chosen, onChange, items }: ItemTagsProps) {
  const tags = useAllTags()
  return (
    <>
      {names.map((tag) => (
        <button key={tag} type="button" className="badge tag-badge" style={chipStyle(tags.data?.find((entry) => entry.name === tag)?.color)} onClick={() => onChange(chosen.includes(tag) ? chosen : [...chosen, tag])} aria-label={`Show ${items} tagged ${tag}`}>#{tag}</button>
      ))}
    </>
  )
}
