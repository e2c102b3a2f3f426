// The link builder: every option of a short link in one form (decisions §6, issue 23), checked as
// the server checks it before sending, with the server's own message beside the field it names,
// and a live preview of the short URL, where visitors go and the social card beside it.
import { useState } from 'react'
import { Link } from 'react-router'
import { COUNTRIES } from '../components/country-codes'
import { Field } from '../components/Field'
import { displayUrl } from '../components/format'
import { FormError } from '../components/FormError'
import { sameNames } from '../components/server-field-error'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { TargetingEditor } from './TargetingEditor'
import { UtmEditor, type UtmTemplate } from './UtmEditor'
import { TagInput, type KnownTag } from '../tags/TagInput'
import { VariantsEditor } from './VariantsEditor'
import { SocialCardImage, SocialPreviews } from './SocialCard'
import { withUtmParameters, type UtmValues } from './utm'
import { MAX_CLICK_LIMIT, MAX_META_DESCRIPTION_LENGTH, MAX_META_TITLE_LENGTH, TARGET_DEVICES, validateLinkForm, type LinkFormValues, type TargetDevice } from './link-form'

export interface LinkFormOptions {
  domains: Array<{ id: number; domain: string }>
  campaigns: Array<{ id: number; name: string }>
  channels: Array<{ id: number; name: string }>
  pixels: Array<{ id: number; name: string; type: string }>
  splashPages: Array<{ id: number; name: string }>
  overlays: Array<{ id: number; name: string }>
  utmTemplates: UtmTemplate[]
  /** The workspace's tags, suggested in the tags input. */
  tags?: KnownTag[]
  /** Whether the workspace's new links track conversions (the box's state until it is changed). */
  trackConversionsByDefault?: boolean
}

interface LinkFormProps {
  initial: LinkFormValues
  options: LinkFormOptions
  mode: 'create' | 'edit'
  /** Edit: whether the link is password-protected now. */
  hasPassword?: boolean
  submitLabel: string
  onSubmit(values: LinkFormValues): Promise<unknown>
  onCancel?(): void
  /** Saves UTM parameters as a template of the account. */
  onSaveUtmTemplate?(name: string, utm: Partial<UtmValues>): Promise<unknown>
  /** Edit: the saved split test's clicks per variant. */
  variantClicks?: number[]
  /** Edit: ends the split test with the saved variant at `index`. */
  onChooseWinner?(index: number): void
  /** Edit: the link's social card image (its public address, or null) and how to change it. */
  card?: { url: string | null; onUpload(file: File): Promise<unknown>; onRemove(): Promise<unknown> }
}

const DEVICE_NAMES: Record<TargetDevice, string> = {
  iphone: 'iPhone', ipad: 'iPad', android: 'Android', windows: 'Windows', macos: 'macOS', linux: 'Linux', mobile: 'Any phone', tablet: 'Any tablet', desktop: 'Any desktop',
}

export function LinkForm({ initial, options, mode, hasPassword, submitLabel, onSubmit, onCancel, onSaveUtmTemplate, variantClicks, onChooseWinner, card }: LinkFormProps) {
  const [values, setValues] = useState<LinkFormValues>(initial)
  const set = <K extends keyof LinkFormValues>(key: K, value: LinkFormValues[K]) => setValues((current) => ({ ...current, [key]: value }))
  // Errors are keyed by the server's field names (`url`, `geotarget.0.location`): every one it names is shown.
  const { errors, formError, submitting, submit } = useCheckedSubmit<string>({
    validate: () => validateLinkForm(values, new Date(), mode === 'edit' ? initial.custom : undefined),
    send: () => onSubmit(values),
    fields: sameNames,
    summary: 'Some fields need a fix before the link can be saved.',
  })

  const domain = options.domains.find((entry) => String(entry.id) === values.domain)
  const previewHost = displayUrl(domain ? domain.domain : window.location.origin)

  return (
    <form className="link-builder" onSubmit={submit} noValidate aria-label={mode === 'create' ? 'Create link' : 'Edit link'}>
      <div className="builder-main stack">
        <FormError message={formError} />
        <section className="card stack" aria-labelledby="section-destination">
          <h2 id="section-destination">Destination</h2>
          <Field label="Destination URL" error={errors.url} hint="Where visitors end up.">
            <input type="url" inputMode="url" placeholder="https://example.com/spring-sale" value={values.url} onChange={(event) => set('url', event.target.value)} autoFocus={mode === 'create'} />
          </Field>
          <div className="grid-2">
            <Field label="Domain" error={errors.domain} hint={options.domains.length === 0 ? <>Serve links on your own domain: <Link to="/domains/new">add a branded domain</Link>.</> : undefined}>
              <select value={values.domain} onChange={(event) => set('domain', event.target.value)}>
                <option value="">Main domain ({displayUrl(window.location.origin)})</option>
                {options.domains.map((entry) => <option key={entry.id} value={entry.id}>{displayUrl(entry.domain)}</option>)}
                {unlisted(values.domain, options.domains) && <option value={values.domain}>{displayUrl(values.domain)}</option>}
              </select>
            </Field>
            <Field label="Alias" optional error={errors.custom} hint="Leave empty for a random one. 3–64 letters, digits, _ or -.">
              <input type="text" value={values.custom} placeholder="spring-sale" autoCapitalize="off" spellCheck={false} onChange={(event) => set('custom', event.target.value)} />
            </Field>
          </div>
        </section>

        <section className="card stack" aria-labelledby="section-split">
          <h2 id="section-split">Split test</h2>
          <VariantsEditor rows={values.variants} errors={errors} onChange={(rows) => set('variants', rows)} clicks={variantClicks} onChooseWinner={onChooseWinner} />
        </section>

        <section className="card stack" aria-labelledby="section-behaviour">
          <h2 id="section-behaviour">Behaviour</h2>
          <div className="grid-2">
            <Field label="Link type" error={errors.type}>
              <select value={values.type} onChange={(event) => set('type', event.target.value)}>
                <option value="direct">Direct redirect</option>
                <option value="frame">Framed page</option>
                <option value="splash">Splash page (default)</option>
                {options.splashPages.length > 0 && (
                  <optgroup label="Your splash pages">
                    {options.splashPages.map((page) => <option key={page.id} value={String(page.id)}>Splash: {page.name}</option>)}
                  </optgroup>
                )}
                {/^\d+$/.test(values.type) && unlisted(values.type, options.splashPages) && <option value={values.type}>Splash page #{values.type}</option>}
                {values.type.startsWith('overlay-') && unlisted(values.type.slice(8), options.overlays) && <option value={values.type}>Overlay #{values.type.slice(8)}</option>}
                {options.overlays.length > 0 && (
                  <optgroup label="Call-to-action overlays">
                    {options.overlays.map((overlay) => <option key={overlay.id} value={`overlay-${overlay.id}`}>Overlay: {overlay.name}</option>)}
                  </optgroup>
                )}
              </select>
            </Field>
            <Field label="Expires" optional error={errors.expiry} hint="Your local time. After it, visitors see that the link expired.">
              <input type="datetime-local" value={values.expiry} onChange={(event) => set('expiry', event.target.value)} />
            </Field>
          </div>
          <div className="grid-2">
            <Field label="Click limit" optional error={errors.clicklimit} hint="After this many clicks by people (bots are not counted), the link has expired.">
              <input type="number" inputMode="numeric" min={1} max={MAX_CLICK_LIMIT} step={1} placeholder="1000" value={values.clicklimit} onChange={(event) => set('clicklimit', event.target.value)} />
            </Field>
            <Field label="Once expired, send visitors to" optional error={errors.expiredurl} hint="After the expiry date or the click limit; without it they see that the link expired.">
              <input type="url" inputMode="url" placeholder="https://example.com/sold-out" value={values.expiredurl} onChange={(event) => set('expiredurl', event.target.value)} />
            </Field>
            <Field label="While the destination is broken, send visitors to" optional error={errors.brokenurl} hint="Linkwell checks the destination every few hours; while it answers with an error, visitors (a printed QR code's too) go here.">
              <input type="url" inputMode="url" placeholder="https://example.com/home" value={values.brokenurl} onChange={(event) => set('brokenurl', event.target.value)} />
            </Field>
          </div>
          <div className="grid-2">
            <Field label={mode === 'edit' && hasPassword ? 'New password' : 'Password'} optional error={errors.password} hint={mode === 'edit' && hasPassword ? 'Leave empty to keep the current password.' : 'Visitors must enter it before they are sent on.'}>
              <input type="password" autoComplete="new-password" value={values.password} disabled={values.removePassword} onChange={(event) => set('password', event.target.value)} />
            </Field>
            {mode === 'edit' && hasPassword && (
              <label className="checkbox align-end">
                <input type="checkbox" checked={values.removePassword} onChange={(event) => set('removePassword', event.target.checked)} />
                Remove the password
              </label>
            )}
          </div>
        </section>

        <section className="card stack" aria-labelledby="section-tracking">
          <h2 id="section-tracking">Organise and track</h2>
          <TagInput value={values.tags} known={options.tags} onChange={(tags) => set('tags', tags)} error={errors.tags ?? Object.entries(errors).find(([field]) => field.startsWith('tags.'))?.[1]} />
          <div className="grid-2">
            <Field label="Campaign" optional error={errors.campaign}>
              <select value={values.campaign} onChange={(event) => set('campaign', event.target.value)}>
                <option value="">No campaign</option>
                {options.campaigns.map((campaign) => <option key={campaign.id} value={campaign.id}>{campaign.name}</option>)}
                {unlisted(values.campaign, options.campaigns) && <option value={values.campaign}>Campaign #{values.campaign}</option>}
              </select>
            </Field>
            <Field label="Channel" optional error={errors.channel} hint={mode === 'edit' ? 'Adds the link to this channel.' : undefined}>
              <select value={values.channel} onChange={(event) => set('channel', event.target.value)}>
                <option value="">No channel</option>
                {options.channels.map((channel) => <option key={channel.id} value={channel.id}>{channel.name}</option>)}
              </select>
            </Field>
          </div>
          <fieldset className="checkbox-group">
            <legend>Tracking pixels</legend>
            {options.pixels.length === 0
              ? <p className="hint">No pixels yet. <Link to="/pixels">Add a pixel</Link> to fire it on visits.</p>
              : options.pixels.map((pixel) => (
                  <label key={pixel.id} className="checkbox">
                    <input type="checkbox" checked={values.pixels.includes(pixel.id)} onChange={(event) => set('pixels', event.target.checked ? [...values.pixels, pixel.id] : values.pixels.filter((id) => id !== pixel.id))} />
                    {pixel.name} <span className="muted small">({pixel.type})</span>
                  </label>
                ))}
            {errors.pixels && <p className="field-error">{errors.pixels}</p>}
          </fieldset>
          <label className="checkbox">
            <input type="checkbox" checked={values.trackconversions ?? options.trackConversionsByDefault ?? false} aria-describedby="track-conversions-hint" onChange={(event) => set('trackconversions', event.target.checked)} />
            Track conversions
          </label>
          <p className="hint" id="track-conversions-hint">Sign-ups and sales on your website count for this link (your website reports them: see Conversions → Set up tracking).</p>
        </section>

        <section className="card stack" aria-labelledby="section-utm">
          <h2 id="section-utm">UTM parameters</h2>
          <p className="hint">Added to the destination's address at every visit (an address's own utm_ parameter of the same name is replaced), so analytics tools see where visitors came from.</p>
          <UtmEditor values={values.utm} errors={errors} templates={options.utmTemplates} onChange={(utm) => set('utm', utm)} onSaveTemplate={onSaveUtmTemplate} />
        </section>

        <section className="card stack" aria-labelledby="section-social">
          <h2 id="section-social">Social preview</h2>
          <Field label="Meta title" optional error={errors.metatitle} hint={`${values.metatitle.length}/${MAX_META_TITLE_LENGTH}`}>
            <input type="text" value={values.metatitle} onChange={(event) => set('metatitle', event.target.value)} />
          </Field>
          <Field label="Meta description" optional error={errors.metadescription} hint={`${values.metadescription.length}/${MAX_META_DESCRIPTION_LENGTH}`}>
            <textarea rows={3} value={values.metadescription} onChange={(event) => set('metadescription', event.target.value)} />
          </Field>
        </section>

        <section className="card stack" aria-labelledby="section-targeting">
          <h2 id="section-targeting">Targeting</h2>
          <p className="hint">App links come first: a visitor on iOS or Android goes to the app's link, whatever the rules below say.</p>
          <div className="grid-2">
            <Field label="iOS app link" optional error={errors.ios} hint="iPhone and iPad visitors: the app's link or its App Store page.">
              <input type="url" inputMode="url" placeholder="https://apps.apple.com/app/id…" value={values.ios} onChange={(event) => set('ios', event.target.value)} />
            </Field>
            <Field label="Android app link" optional error={errors.android} hint="Android visitors: the app's link or its Play Store page.">
              <input type="url" inputMode="url" placeholder="https://play.google.com/store/apps/details?id=…" value={values.android} onChange={(event) => set('android', event.target.value)} />
            </Field>
          </div>
          <TargetingEditor
            field="geotarget" keyName="location" title="By country" keyLabel="Country" addLabel="Add country rule"
            description="Visitors from these countries go to another destination."
            rules={values.geotarget.map((rule) => ({ key: rule.location, link: rule.link }))}
            errors={errors}
            onChange={(rules) => set('geotarget', rules.map((rule) => ({ location: rule.key, link: rule.link })))}
            renderKeyInput={({ id, value, invalid, describedBy, onChange }) => (
              <select id={id} value={value.toUpperCase()} aria-invalid={invalid || undefined} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)}>
                <option value="">Choose…</option>
                {COUNTRIES.map((country) => <option key={country.code} value={country.code}>{country.name}</option>)}
              </select>
            )}
          />
          <TargetingEditor
            field="devicetarget" keyName="device" title="By device" keyLabel="Device" addLabel="Add device rule"
            description="Send phones, tablets or a platform somewhere else (an app store, say)."
            rules={values.devicetarget.map((rule) => ({ key: rule.device, link: rule.link }))}
            notice={<ShadowedDeviceRules values={values} />}
            errors={errors}
            onChange={(rules) => set('devicetarget', rules.map((rule) => ({ device: rule.key as TargetDevice | '', link: rule.link })))}
            renderKeyInput={({ id, value, invalid, describedBy, onChange }) => (
              <select id={id} value={value} aria-invalid={invalid || undefined} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)}>
                <option value="">Choose…</option>
                {TARGET_DEVICES.map((device) => <option key={device} value={device}>{DEVICE_NAMES[device]}</option>)}
              </select>
            )}
          />
          <TargetingEditor
            field="languagetarget" keyName="language" title="By language" keyLabel="Language" addLabel="Add language rule"
            description="By the browser's first language, as a two-letter code (fr, de, es)."
            rules={values.languagetarget.map((rule) => ({ key: rule.language, link: rule.link }))}
            errors={errors}
            onChange={(rules) => set('languagetarget', rules.map((rule) => ({ language: rule.key, link: rule.link })))}
            renderKeyInput={({ id, value, invalid, describedBy, onChange }) => (
              <input id={id} type="text" maxLength={2} placeholder="fr" value={value} aria-invalid={invalid || undefined} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)} />
            )}
          />
        </section>
      </div>

      <aside className="builder-side">
        <div className="card stack sticky">
          <h2>Preview</h2>
          <div>
            <p className="muted small">Short link</p>
            <p className="short-preview">{previewHost}/<strong>{values.custom || '…'}</strong></p>
          </div>
          {appLinksOf(values).map(({ platform, url }) => (
            <div key={platform}>
              <p className="muted small">{platform} visitors go to</p>
              <p className="short-preview" aria-label={`${platform} preview`}>{withUtmParameters(url, values.utm)}</p>
            </div>
          ))}
          <div>
            <p className="muted small" id="preview-destination-label">{appLinksOf(values).length > 0 ? 'Other visitors' : 'Visitors'} go to{values.variants.length > 0 ? ' one of' : ''}{hasRules(values) ? ' (unless a targeting rule applies)' : ''}</p>
            {values.variants.length > 0
              ? values.variants.map((row, index) => (
                  <p key={index} className="short-preview" aria-label={`Variant ${index + 1} preview`}>{row.url.trim() ? withUtmParameters(row.url.trim(), values.utm) : '…'}</p>
                ))
              : <p className="short-preview" aria-labelledby="preview-destination-label" data-testid="destination-preview">{values.url.trim() ? withUtmParameters(values.url.trim(), values.utm) : '…'}</p>}
          </div>
          <section className="stack" aria-labelledby="preview-social">
            <h3 id="preview-social" className="small-heading">Shared on social sites</h3>
            <SocialCardImage card={card?.url ?? null} onUpload={card?.onUpload} onRemove={card?.onRemove} />
            <SocialPreviews title={values.metatitle.trim()} description={values.metadescription.trim()} domain={previewHost.split('/')[0]!} image={card?.url ?? null} />
          </section>
          <div className="builder-actions">
            <button type="submit" className="button primary block" disabled={submitting}>{submitting ? 'Saving…' : submitLabel}</button>
            {onCancel && <button type="button" className="button ghost block" onClick={onCancel}>Cancel</button>}
          </div>
        </div>
      </aside>
    </form>
  )
}

/** The app links set, in the preview's words: who goes there. */
function appLinksOf(values: LinkFormValues): Array<{ platform: string; url: string }> {
  return [
    { platform: 'iPhone and iPad', url: values.ios.trim() },
    { platform: 'Android', url: values.android.trim() },
  ].filter((entry) => entry.url !== '')
}

/** True when some country, device or language rule may send a visitor elsewhere. */
function hasRules(values: LinkFormValues): boolean {
  return values.geotarget.length + values.devicetarget.length + values.languagetarget.length > 0
}

/** Device rules an app link comes before (ADR 020): they would never apply, so the builder says so. */
function ShadowedDeviceRules({ values }: { values: LinkFormValues }) {
  const shadowed = values.devicetarget.flatMap((rule, index) => {
    const appLink = rule.device === 'iphone' || rule.device === 'ipad' ? values.ios.trim() && 'iOS' : rule.device === 'android' ? values.android.trim() && 'Android' : ''
    return appLink ? [`Device rule ${index + 1} (${DEVICE_NAMES[rule.device as TargetDevice]}) is not used: those visitors go to the ${appLink} app link above.`] : []
  })
  return shadowed.length > 0 ? <p className="notice small" role="note">{shadowed.join(' ')}</p> : null
}

/** A chosen value the option list does not hold (the lists show the first 100 of each). */
function unlisted(value: string, entries: Array<{ id: number }>): boolean {
  return value !== '' && !entries.some((entry) => String(entry.id) === value)
}
