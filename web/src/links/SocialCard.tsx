// A link's social card in the builder (issue 23): the image link-preview fetchers show (uploaded
// with POST /api/url/{id}/card, removed with DELETE), and the card as Slack, X and LinkedIn show
// it, from the meta title, description, the short link's domain and the image.
import { useId, useState } from 'react'
import { messageOf } from '../api/client'

/** The server's rule: PNG, JPEG or WebP, at most 1 MB (it checks the content; this checks the type). */
export const CARD_MAX_BYTES = 1024 * 1024
const CARD_TYPES = ['image/png', 'image/jpeg', 'image/webp']

/** Why the chosen file cannot be a card, or undefined when it may be uploaded. */
export function cardFileProblem(file: Pick<File, 'size' | 'type'>): string | undefined {
  if (!CARD_TYPES.includes(file.type)) return 'Choose a PNG, JPEG or WebP image.'
  if (file.size === 0) return 'The file is empty.'
  if (file.size > CARD_MAX_BYTES) return `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; a card image may be at most 1 MB.`
  return undefined
}

export interface CardPreview {
  title: string
  description: string
  /** The short link's domain, as the networks print it. */
  domain: string
  image: string | null
}

/** The card as Slack, X and LinkedIn show a shared link (mock-ups, not their exact pixels). */
export function SocialPreviews({ title, description, domain, image }: CardPreview) {
  const shownTitle = title || 'The destination page\'s own title'
  return (
    <div className="social-previews stack">
      <figure className="social-mock social-slack" aria-label="Slack preview">
        <figcaption className="muted small">Slack</figcaption>
        <div className="slack-body">
          <p className="social-site">{domain}</p>
          <p className="social-title slack-title">{shownTitle}</p>
          {description && <p className="social-description">{description}</p>}
          {image && <img src={image} alt="" className="social-image" />}
        </div>
      </figure>
      <figure className="social-mock social-x" aria-label="X preview">
        <figcaption className="muted small">X</figcaption>
        <div className="x-body">
          {image ? <img src={image} alt="" className="social-image" /> : <div className="social-image social-image-empty" aria-hidden="true" />}
          <p className="x-overlay">{shownTitle}</p>
        </div>
        <p className="social-site">From {domain}</p>
      </figure>
      <figure className="social-mock social-linkedin" aria-label="LinkedIn preview">
        <figcaption className="muted small">LinkedIn</figcaption>
        <div className="linkedin-body">
          {image && <img src={image} alt="" className="social-image" />}
          <div className="linkedin-text">
            <p className="social-title">{shownTitle}</p>
            <p className="social-site">{domain}</p>
          </div>
        </div>
      </figure>
    </div>
  )
}

interface SocialCardImageProps {
  /** The card's public address, or null. */
  card: string | null
  /** Undefined on a link not saved yet: the image is added once it exists. */
  onUpload?(file: File): Promise<unknown>
  onRemove?(): Promise<unknown>
}

/** Choose, replace or remove the card image (sent at once, not with the form). */
export function SocialCardImage({ card, onUpload, onRemove }: SocialCardImageProps) {
  const id = useId()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string>()

  async function run(work: () => Promise<unknown>) {
    setBusy(true)
    setProblem(undefined)
    try {
      await work()
    } catch (failure) {
      setProblem(messageOf(failure))
    } finally {
      setBusy(false)
    }
  }

  if (!onUpload) return <p className="muted small">Save the link first, then add a card image (shown by Slack, X, LinkedIn and other sites a link is shared on).</p>
  return (
    <div className="field">
      <label htmlFor={id}>Card image (optional)</label>
      <input
        id={id}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        disabled={busy}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ''
          if (!file) return
          const refused = cardFileProblem(file)
          if (refused) setProblem(refused)
          else void run(() => onUpload(file))
        }}
      />
      <p id={`${id}-hint`} className="muted small">PNG, JPEG or WebP, at most 1 MB; cropped to 1200×630. {busy ? 'Uploading…' : card ? 'A card image is set.' : 'No card image yet.'}</p>
      {problem && <p id={`${id}-error`} className="field-error" role="alert">{problem}</p>}
      {card && onRemove && <button type="button" className="button ghost" disabled={busy} onClick={() => void run(onRemove)}>Remove card image</button>}
    </div>
  )
}
