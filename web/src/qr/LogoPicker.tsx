// The logo of a QR code: none, a PNG or JPEG uploaded to the server (POST /api/upload/logo), or an
// image address the server fetches once. The file is checked here as the server checks it.
import { useId, useState } from 'react'
import { messageOf } from '../api/client'
import type { LogoMode } from './qr-design'
import { useUploadLogo } from './qr-queries'

/** decisions §6: at most 500 KB. */
export const LOGO_MAX_BYTES = 500 * 1024

/** Why the chosen file cannot be a logo, or undefined when it may be uploaded. */
export function logoFileProblem(file: Pick<File, 'size' | 'type'>): string | undefined {
  if (file.type !== 'image/png' && file.type !== 'image/jpeg') return 'Choose a PNG or JPEG image.'
  if (file.size > LOGO_MAX_BYTES) return `The file is ${Math.ceil(file.size / 1024)} KB; a logo may be at most 500 KB.`
  if (file.size === 0) return 'The file is empty.'
  return undefined
}

interface LogoPickerProps {
  mode: LogoMode
  path: string
  url: string
  error?: string
  onChange(change: { mode?: LogoMode; path?: string; url?: string }): void
}

const MODES: Array<[LogoMode, string]> = [['none', 'No logo'], ['upload', 'Upload an image'], ['url', 'Image address']]

export function LogoPicker({ mode, path, url, error, onChange }: LogoPickerProps) {
  const id = useId()
  const [uploading, setUploading] = useState(false)
  const [uploadError, setUploadError] = useState<string>()
  const [fileName, setFileName] = useState<string>()
  const upload = useUploadLogo()
  const shownError = uploadError ?? error

  async function choose(file: File | undefined) {
    setUploadError(undefined)
    if (!file) return
    const problem = logoFileProblem(file)
    if (problem) {
      setUploadError(problem)
      return
    }
    setUploading(true)
    try {
      onChange({ path: await upload.mutateAsync(file) })
      setFileName(file.name)
    } catch (failure) {
      setUploadError(messageOf(failure))
    } finally {
      setUploading(false)
    }
  }

  return (
    <fieldset className="qr-logo stack">
      <legend>Logo <span className="optional">(optional)</span></legend>
      <div className="qr-choices" role="radiogroup" aria-label="Logo source">
        {MODES.map(([value, label]) => (
          <label key={value} className="qr-choice">
            <input type="radio" name={`${id}-mode`} value={value} checked={mode === value} onChange={() => { setUploadError(undefined); onChange({ mode: value }) }} />
            {label}
          </label>
        ))}
      </div>
      {mode === 'upload' && (
        <div className={shownError ? 'field invalid' : 'field'}>
          <label htmlFor={`${id}-file`}>Logo file</label>
          <input id={`${id}-file`} type="file" accept="image/png,image/jpeg" aria-describedby={`${id}-file-hint`} aria-invalid={shownError ? true : undefined} disabled={uploading} onChange={(event) => void choose(event.target.files?.[0])} />
          <p className="hint" id={`${id}-file-hint`} role="status">
            {uploading ? 'Uploading…' : path ? `Using ${fileName ?? 'the uploaded image'}. Choose another file to replace it.` : 'PNG or JPEG, at most 500 KB. It sits in the middle of the code.'}
          </p>
          {shownError && <p className="field-error">{shownError}</p>}
        </div>
      )}
      {mode === 'url' && (
        <div className={shownError ? 'field invalid' : 'field'}>
          <label htmlFor={`${id}-url`}>Logo address</label>
          <input id={`${id}-url`} type="url" inputMode="url" placeholder="https://example.com/logo.png" value={url} aria-invalid={shownError ? true : undefined} aria-describedby={`${id}-url-hint`} onChange={(event) => onChange({ url: event.target.value })} />
          <p className="hint" id={`${id}-url-hint`}>A PNG or JPEG of at most 500 KB, fetched once when you save.</p>
          {shownError && <p className="field-error">{shownError}</p>}
        </div>
      )}
    </fieldset>
  )
}
