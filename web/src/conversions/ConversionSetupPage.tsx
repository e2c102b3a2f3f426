// Setting up conversion tracking (issue 39, ADR 034), for a marketer with the person who runs the
// website beside them: (1) links track conversions (the workspace's default for new links, and
// the link form's box for one link); (2) the script for the website, and how its server reports a
// sign-up with the click id; (3) a publishable key (scope `track`) and the website's origins;
// (4) the Stripe address to paste into Stripe, the events to choose, and Stripe's signing secret.
// Data: GET /api/account/settings, PUT /api/account/update, POST /api/key/add.
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { useAccountSettings, useCreateKey, useUpdateAccount } from '../account/account-queries'
import { CopyButton } from '../components/CopyButton'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { RoleNote, useMay } from '../members/RoleGuard'
import './conversions.css'

type Settings = NonNullable<ReturnType<typeof useAccountSettings>['data']>

/** Where this Linkwell answers: the dashboard's own origin (the script and the API are served beside it). */
function linkwellOrigin(): string {
  return window.location.origin
}

/** The tag to paste into the website; the parameter said only when the workspace renamed it. */
export function scriptSnippet(origin: string, parameter: string): string {
  return `<script src="${origin}/lw.js"${parameter === 'lw_id' ? '' : ` data-param="${parameter}"`} async></script>`
}

/** What the website's server sends when a visitor signs up. */
export function leadSnippet(origin: string): string {
  return [
    `curl -X POST ${origin}/api/track/lead \\`,
    '  -H "Authorization: Bearer YOUR_PUBLISHABLE_KEY" \\',
    '  -H "Content-Type: application/json" \\',
    '  -d \'{"clickid": "THE_CLICK_ID", "customer": {"id": "YOUR_CUSTOMER_ID", "email": "ada@example.com"}}\'',
  ].join('\n')
}

/** One origin per line, as the API takes them (blank lines left out). */
export function originsOf(text: string): string[] {
  return text.split('\n').map((line) => line.trim().replace(/\/$/, '')).filter(Boolean)
}

export function ConversionSetupPage() {
  const settings = useAccountSettings()
  return (
    <>
      <PageHeader
        title="Set up conversion tracking"
        description="Four steps to see which links bring sign-ups and sales. Steps 2 and 4 need someone who can change your website or your Stripe account: send them this page."
        actions={<Link to="/conversions" className="button">Back to conversions</Link>}
      />
      {settings.isPending ? <Loading label="Loading your settings…" /> : settings.isError ? <ErrorMessage error={settings.error} onRetry={() => settings.refetch()} /> : (
        <ol className="stack setup-steps plain-list">
          <TrackLinksStep settings={settings.data} />
          <ScriptStep settings={settings.data} />
          <KeyStep settings={settings.data} />
          <StripeStep settings={settings.data} />
        </ol>
      )}
    </>
  )
}

function TrackLinksStep({ settings }: { settings: Settings }) {
  const mayChange = useMay('owner')
  const update = useUpdateAccount()
  const [track, setTrack] = useState(settings.trackconversions)
  const [passthrough, setPassthrough] = useState(settings.querypassthrough)
  useEffect(() => { setTrack(settings.trackconversions); setPassthrough(settings.querypassthrough) }, [settings.trackconversions, settings.querypassthrough])
  const form = useCheckedSubmit<'trackconversions' | 'querypassthrough'>({
    validate: () => ({}),
    send: () => update.mutateAsync({ trackconversions: track, querypassthrough: passthrough }),
    fields: ['trackconversions', 'querypassthrough'],
  })
  const unchanged = track === settings.trackconversions && passthrough === settings.querypassthrough
  return (
    <li className="card stack setup-step" id="track-links" aria-labelledby="track-links-title">
      <h2 id="track-links-title">Turn on conversion tracking for your links</h2>
      <p>Each click on a tracked link gets an anonymous click id, added to the address your visitor lands on (<code>?{settings.clickidparameter}=…</code>). When that visitor later signs up or buys, your website hands the id back and Linkwell knows which link brought them.</p>
      <RoleNote id="track-role-note" needed="owner" allowed={mayChange} />
      <form className="stack" onSubmit={form.submit} noValidate aria-label="Conversion tracking for new links">
        <label className="checkbox">
          <input type="checkbox" checked={track} disabled={!mayChange} onChange={(event) => setTrack(event.target.checked)} />
          Track conversions on every new link
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={passthrough} disabled={!mayChange} onChange={(event) => setPassthrough(event.target.checked)} />
          Pass visitors’ own parameters (utm_…, gclid, fbclid) on to your website
        </label>
        <div className="row wrap">
          <button type="submit" className="button primary" disabled={!mayChange || form.submitting || unchanged}>{form.submitting ? 'Saving…' : 'Save'}</button>
          {form.succeeded && unchanged && <span className="done" role="status">Saved.</span>}
        </div>
        <FormError message={form.formError} />
      </form>
      <p className="muted small">Links you made before keep their setting: open a link, choose <strong>Edit link</strong> and tick <strong>Track conversions</strong> under “Organise and track”. <Link to="/links">Go to your links</Link></p>
    </li>
  )
}

function ScriptStep({ settings }: { settings: Settings }) {
  const origin = linkwellOrigin()
  const script = scriptSnippet(origin, settings.clickidparameter)
  const lead = leadSnippet(origin)
  return (
    <li className="card stack setup-step" id="script" aria-labelledby="script-title">
      <h2 id="script-title">Add the script to your website and report sign-ups</h2>
      <p>Ask the person who runs your website to paste this line before <code>&lt;/head&gt;</code> on the pages your links lead to. It remembers the click id for {settings.attributiondays} days, in your website’s own cookie, and sends nothing by itself.</p>
      <div className="command-block">
        <pre aria-label="Script for your website"><code>{script}</code></pre>
        <CopyButton text={script} label="Copy the script" />
      </div>
      <p>When a visitor signs up, your website reads the click id on the page with <code>linkwell.clickId()</code>, sends it with the sign-up form, and its server reports the sign-up (a “lead”) to Linkwell with your publishable key from step 3:</p>
      <div className="command-block">
        <pre aria-label="How your website's server reports a sign-up"><code>{lead}</code></pre>
        <CopyButton text={lead} label="Copy the example" />
      </div>
      <p className="muted small">Use your own customer id: sales reported later for the same customer (from Stripe, or <code>POST /api/track/sale</code>) count for the same link. Sending the sign-up straight from the page works too, once its website is listed in step 3.</p>
    </li>
  )
}

function KeyStep({ settings }: { settings: Settings }) {
  const mayCreateKey = useMay('admin')
  const mayChange = useMay('owner')
  const createKey = useCreateKey()
  const update = useUpdateAccount()
  const [name, setName] = useState('Website')
  const [secret, setSecret] = useState<string>()
  const [origins, setOrigins] = useState(settings.trackingorigins.join('\n'))
  useEffect(() => setOrigins(settings.trackingorigins.join('\n')), [settings.trackingorigins])
  const keyForm = useCheckedSubmit<'name'>({
    validate: () => (name.trim() ? {} : { name: 'Give the key a name, such as the website it is for.' }),
    send: async () => setSecret((await createKey.mutateAsync({ name: name.trim(), scopes: ['track'] })).key),
    fields: ['name'],
  })
  const originForm = useCheckedSubmit<'trackingorigins'>({
    validate: () => {
      const wrong = originsOf(origins).find((origin) => !/^https?:\/\/[^/\s]+$/i.test(origin))
      return wrong ? { trackingorigins: `“${wrong}” is not a website address such as https://shop.example (no path).` } : {}
    },
    send: () => update.mutateAsync({ trackingorigins: originsOf(origins) }),
    fields: ['trackingorigins'],
  })
  return (
    <li className="card stack setup-step" id="key" aria-labelledby="key-title">
      <h2 id="key-title">Create a publishable key and list your website</h2>
      <p>A publishable key can only report sign-ups and sales: it cannot read or change anything, so it may sit in your website’s code.</p>
      <RoleNote id="key-role-note" needed="admin" allowed={mayCreateKey} />
      {mayCreateKey && (
        <form className="inline-form" onSubmit={keyForm.submit} noValidate aria-label="Create a publishable key">
          <Field label="Key name" error={keyForm.errors.name}>
            <input type="text" value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
          <button type="submit" className="button primary" disabled={keyForm.submitting}>{keyForm.submitting ? 'Creating…' : 'Create publishable key'}</button>
        </form>
      )}
      <FormError message={keyForm.formError} />
      {secret && (
        <div className="stack" role="status">
          <p className="small"><strong>Copy the key now and give it to the person who runs your website.</strong> It is shown only this once; you can see and revoke it on the <Link to="/account">Account</Link> page.</p>
          <div className="secret">
            <code aria-label="New publishable key">{secret}</code>
            <CopyButton text={secret} label="Copy key" className="button small primary" />
          </div>
        </div>
      )}
      <form className="stack" onSubmit={originForm.submit} noValidate aria-label="Websites allowed to report">
        <Field label="Websites whose pages may report directly" optional error={originForm.errors.trackingorigins} hint="One per line, such as https://shop.example. Only needed when the page itself, not your website’s server, sends the sign-up.">
          <textarea rows={3} value={origins} disabled={!mayChange} placeholder="https://shop.example" onChange={(event) => setOrigins(event.target.value)} />
        </Field>
        <div className="row wrap">
          <button type="submit" className="button" disabled={!mayChange || originForm.submitting}>{originForm.submitting ? 'Saving…' : 'Save websites'}</button>
          {originForm.succeeded && <span className="done" role="status">Saved.</span>}
        </div>
        <FormError message={originForm.formError} />
      </form>
    </li>
  )
}

function StripeStep({ settings }: { settings: Settings }) {
  const mayChange = useMay('owner')
  const update = useUpdateAccount()
  const [secret, setSecret] = useState('')
  const address = settings.stripewebhookurl
  const makeAddress = useCheckedSubmit<never>({
    validate: () => ({}),
    // The address is made by a first secret, even an empty one (Stripe shows its secret only once it has the address).
    send: () => update.mutateAsync({ stripesigningsecret: '' }),
    fields: [],
  })
  const secretForm = useCheckedSubmit<'stripesigningsecret'>({
    validate: () => (/^whsec_\S{8,}$/.test(secret.trim()) ? {} : { stripesigningsecret: 'Paste the signing secret Stripe shows for this endpoint: it starts with whsec_.' }),
    send: async () => { await update.mutateAsync({ stripesigningsecret: secret.trim() }); setSecret('') },
    fields: ['stripesigningsecret'],
  })
  return (
    <li className="card stack setup-step" id="stripe" aria-labelledby="stripe-title">
      <h2 id="stripe-title">Connect Stripe, so that payments count as sales</h2>
      <RoleNote id="stripe-role-note" needed="owner" allowed={mayChange} />
      {address === null ? (
        <form onSubmit={makeAddress.submit} noValidate aria-label="Stripe address">
          <p>First get your workspace’s own address for Stripe.</p>
          <button type="submit" className="button primary" disabled={!mayChange || makeAddress.submitting}>{makeAddress.submitting ? 'Making…' : 'Get my Stripe address'}</button>
          <FormError message={makeAddress.formError} />
        </form>
      ) : (
        <>
          <ol className="stack">
            <li>In Stripe, open <strong>Developers → Webhooks</strong> and choose <strong>Add endpoint</strong>.</li>
            <li>
              Paste this address as the endpoint URL:
              <div className="secret-row">
                <code className="secret-text" aria-label="Your Stripe webhook address">{address}</code>
                <CopyButton text={address} label="Copy address" />
              </div>
            </li>
            <li>Select these events: <code>checkout.session.completed</code>, <code>invoice.paid</code> and <code>charge.refunded</code> (refunds are taken off the revenue).</li>
            <li>Save the endpoint, reveal its <strong>Signing secret</strong> (it starts with <code>whsec_</code>) and paste it here:</li>
          </ol>
          <form className="inline-form" onSubmit={secretForm.submit} noValidate aria-label="Save Stripe’s signing secret">
            <Field label="Stripe signing secret" error={secretForm.errors.stripesigningsecret} hint={settings.stripesigningsecretset ? 'A secret is saved (it is never shown again). Paste a new one to replace it.' : undefined}>
              <input type="password" autoComplete="off" value={secret} disabled={!mayChange} placeholder="whsec_…" onChange={(event) => setSecret(event.target.value)} />
            </Field>
            <button type="submit" className="button primary" disabled={!mayChange || secretForm.submitting}>{secretForm.submitting ? 'Saving…' : 'Save secret'}</button>
          </form>
          <FormError message={secretForm.formError} />
          {settings.stripesigningsecretset
            ? <p className="done" role="status">Stripe is connected: paid checkouts and invoices are recorded as sales.</p>
            : <p className="muted small">Until the secret is saved, Stripe’s events are refused.</p>}
          <p className="muted small">So that a payment counts for the link that brought the customer, your checkout passes the same customer id as the sign-up, as the Checkout Session’s <code>client_reference_id</code> (or <code>metadata.lw_customer</code>).</p>
        </>
      )}
    </li>
  )
}
