// Tags of a link, QR code or bio page: type a name and press Enter (or a comma) to add it, pick one
// the workspace has, remove one with its button. New names become tags when the item is saved.
import { useId, useState, type KeyboardEvent } from 'react'
import { chipStyle, withTag } from './tag-rules'
import './tags.css'

/** A tag the workspace has, offered as a suggestion. */
export interface KnownTag {
  id: number
  name: string
  color: string | null
}

interface TagInputProps {
  value: string[]
  onChange(tags: string[]): void
  error?: string
  /** The workspace's tags (tag-queries.ts useAllTags), suggested as the person types. */
  known?: readonly KnownTag[]
}

export function TagInput({ value, onChange, error, known = [] }: TagInputProps) {
  const id = useId()
  const [draft, setDraft] = useState('')
  const colorOf = (name: string) => known.find((tag) => tag.name.toLowerCase() === name.toLowerCase())?.color

  function add(name: string) {
    onChange(withTag(value, name))
    setDraft('')
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === ',' || (event.key === 'Enter' && draft.trim() !== '')) {
      // Enter after a name adds the tag and does not send the form; with nothing typed it sends the form, as in any field.
      event.preventDefault()
      add(draft)
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      onChange(value.slice(0, -1))
    }
  }

  return (
    <div className={error ? 'field invalid' : 'field'}>
      <label htmlFor={id}>Tags <span className="optional">(optional)</span></label>
      <div className="tag-input">
        <ul className="tag-chips" aria-label="Tags of this item">
          {value.map((tag) => (
            <li key={tag} className="tag-chip" style={chipStyle(colorOf(tag))}>
              {tag}
              <button type="button" className="tag-remove" aria-label={`Remove tag ${tag}`} onClick={() => onChange(value.filter((entry) => entry !== tag))}>×</button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          type="text"
          list={`${id}-known`}
          placeholder={value.length === 0 ? 'spring, print…' : 'Add a tag'}
          value={draft}
          maxLength={60}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => (event.target.value.endsWith(',') ? add(event.target.value.slice(0, -1)) : setDraft(event.target.value))}
          onKeyDown={onKeyDown}
          onBlur={() => draft.trim() && add(draft)}
        />
        <datalist id={`${id}-known`}>
          {known.filter((tag) => !value.some((entry) => entry.toLowerCase() === tag.name.toLowerCase())).map((tag) => <option key={tag.id} value={tag.name} />)}
        </datalist>
      </div>
      <p className="hint" id={`${id}-hint`}>Press Enter or a comma after each tag. New tags are created when you save.</p>
      {error && <p className="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  )
}
