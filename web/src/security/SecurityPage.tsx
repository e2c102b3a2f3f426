// The person's security: two-factor sign-in (set up with a QR code and one code, recovery codes
// shown once to copy or download, turned off with a code) and, for owners, requiring it of every
// member of the workspace (ADR 025).
import { useState } from 'react'
import { useAccount } from '../account/account-queries'
import { CopyButton } from '../components/CopyButton'
import { downloadText } from '../components/download'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { RoleNote, useMay } from '../members/RoleGuard'
import { useDisableTwoFactor, useEnableTwoFactor, useRequireTwoFactor, useStartEnrolment, useTwoFactorStatus, type Enrolment } from './two-factor-queries'

const CODE_FIELDS = ['code'] as const

/** The client's check of a code: six digits or a recovery code. */
export function checkCode(code: string): { code?: string } {
  return code.trim() ? {} : { code: 'Enter the six-digit code from your app, or a recovery code.' }
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n')
  return (
    <section className="card stack" aria-labelledby="recovery-title">
      <div>
        <h2 id="recovery-title">Your recovery codes</h2>
        <p className="muted small">Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.</p>
      </div>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      <div className="form-actions">
        <CopyButton text={text} label="Copy codes" className="button" />
        <button type="button" className="button" onClick={() => downloadText('linkwell-recovery-codes.txt', `${text}\n`, 'text/plain;charset=utf-8')}>Download codes</button>
        <button type="button" className="button primary" onClick={onDone}>I have saved them</button>
      </div>
    </section>
  )
}

function Enrol({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment>()
  const [code, setCode] = useState('')
  const startEnrolment = useStartEnrolment()
  const enable = useEnableTwoFactor()
  const start = useCheckedSubmit({
    validate: () => ({}),
    send: async () => setEnrolment(await startEnrolment.mutateAsync()),
    fields: [],
  })
  const confirm = useCheckedSubmit({
    validate: () => checkCode(code),
    send: async () => onEnabled(await enable.mutateAsync(code.trim())),
    fields: CODE_FIELDS,
  })

  if (!enrolment) {
    return (
      <form className="stack" onSubmit={start.submit} noValidate>
        <p>Two-factor sign-in is <strong>off</strong>. With it on, signing in asks for a code from an authenticator app on your phone as well as your password.</p>
        <FormError message={start.formError} />
        <div className="form-actions"><button type="submit" className="button primary" disabled={start.submitting}>{start.submitting ? 'Preparing…' : 'Set up two-factor sign-in'}</button></div>
      </form>
    )
  }
  return (
    <form className="stack" onSubmit={confirm.submit} noValidate aria-labelledby="enrol-title">
      <h3 id="enrol-title">Scan this QR code</h3>
      <p className="muted small">Open your authenticator app (Google Authenticator, 1Password, Authy, …), add an account and scan the code.</p>
      <img className="enrol-qr" src={enrolment.qr} width={200} height={200} alt="QR code to add Linkwell to your authenticator app" />
      <div className="stack tight">
        <span className="muted small" id="secret-label">Cannot scan? Enter this key in the app instead:</span>
        <div className="secret-row">
          <code aria-labelledby="secret-label" className="secret-text">{enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          <CopyButton text={enrolment.secret} label="Copy key" />
        </div>
      </div>
      <Field label="Code from your app" error={confirm.errors.code}>
        <input type="text" name="code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} />
      </Field>
      <FormError message={confirm.formError} />
      <div className="form-actions"><button type="submit" className="button primary" disabled={confirm.submitting}>{confirm.submitting ? 'Checking…' : 'Turn on'}</button></div>
    </form>
  )
}

function Disable({ left }: { left: number }) {
  const [code, setCode] = useState('')
  const disable = useDisableTwoFactor()
  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => checkCode(code),
    send: async () => {
      await disable.mutateAsync(code.trim())
      setCode('')
    },
    fields: CODE_FIELDS,
  })
  return (
    <form className="stack" onSubmit={submit} noValidate aria-labelledby="disable-title">
      <p>Two-factor sign-in is <strong>on</strong>. You have {left} unused recovery code{left === 1 ? '' : 's'}.</p>
      <h3 id="disable-title">Turn off two-factor sign-in</h3>
      <Field label="Code to turn it off" error={errors.code} hint="A code from your app, or a recovery code.">
        <input type="text" name="code" autoComplete="one-time-code" value={code} onChange={(event) => setCode(event.target.value)} />
      </Field>
      <FormError message={formError} />
      <div className="form-actions"><button type="submit" className="button danger" disabled={submitting}>{submitting ? 'Turning off…' : 'Turn off'}</button></div>
    </form>
  )
}

function Requirement({ required, enabled }: { required: boolean; enabled: boolean }) {
  const mayRequire = useMay('owner', false)
  const requirement = useRequireTwoFactor()
  const { formError, submitting, submit } = useCheckedSubmit({
    validate: () => ({}),
    send: () => requirement.mutateAsync(!required),
    fields: [],
  })
  const blocked = !mayRequire || (!required && !enabled)
  return (
    <section className="card stack" aria-labelledby="require-title">
      <div>
        <h2 id="require-title">Require it for the workspace</h2>
        <p className="muted small">{required ? 'Every member signs in with a second factor. Members without one are asked to set it up before anything else.' : 'Members may sign in with a password alone.'}</p>
      </div>
      <RoleNote id="require-reason" needed="owner" allowed={mayRequire} />
      {mayRequire && !required && !enabled && <p id="require-self" className="notice">Turn on two-factor sign-in for yourself first.</p>}
      <form onSubmit={submit} noValidate>
        <FormError message={formError} />
        <button type="submit" className="button wrap-button" disabled={blocked || submitting} aria-describedby={!mayRequire ? 'require-reason' : blocked ? 'require-self' : undefined}>
          {required ? 'Stop requiring two-factor sign-in' : 'Require two-factor sign-in for everyone'}
        </button>
      </form>
    </section>
  )
}

export function SecurityPage() {
  const status = useTwoFactorStatus()
  const account = useAccount()
  const [codes, setCodes] = useState<string[]>()
  const enrolling = account.data?.step === 'enrol'

  return (
    <div className="stack">
      <PageHeader title="Security" description="How you sign in, and what the workspace asks of its members." />
      {enrolling && !codes && <p className="notice" role="status">This workspace requires two-factor sign-in. Set it up to continue.</p>}
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />}
      {status.isPending ? <Loading label="Loading…" /> : status.isError ? <ErrorMessage error={status.error} onRetry={() => status.refetch()} /> : (
        <>
          <section className="card stack" aria-labelledby="two-factor-title">
            <h2 id="two-factor-title">Two-factor sign-in</h2>
            {status.data.enabled ? <Disable left={status.data.recoverycodes} /> : <Enrol onEnabled={setCodes} />}
          </section>
          {!enrolling && <Requirement required={status.data.required} enabled={status.data.enabled} />}
        </>
      )}
    </div>
  )
}
