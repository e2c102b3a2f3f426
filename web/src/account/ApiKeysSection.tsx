// API keys: create one with a name, an optional expiry and optionally read-only (its secret shown
// once, with a copy button), see what each may do, when it was created and last used, revoke.
import { useState } from 'react'
import { messageOf } from '../api/client'
import { ConfirmDialog } from '../components/ConfirmDialog'
import { CopyButton } from '../components/CopyButton'
import { Field } from '../components/Field'
import { formatDate, formatDateTime, utcDay } from '../components/format'
import { FormError } from '../components/FormError'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { checkKeyDraft, KEY_FIELDS, type KeyDraft } from './account-forms'
import { useApiKeys, useCreateKey, useRevokeKey } from './account-queries'
import { RoleNote, useMay } from '../members/RoleGuard'

/** What a key may reach: every resource or the listed ones, and whether only to read. */
function accessOf(key: { scopes: string[] | null; readonly: boolean }): string {
  const reach = key.scopes === null ? 'Everything' : key.scopes.join(', ')
  return key.readonly ? `${reach} (read only)` : reach
}

export function ApiKeysSection() {
  // Keys are an owner's or an admin's (http/api-roles.ts): nobody else is shown them, nor asks.
  const mayManage = useMay('admin')
  const keys = useApiKeys(useMay('admin', false))
  const [draft, setDraft] = useState<KeyDraft>({ name: '', expires: '' })
  const [readOnly, setReadOnly] = useState(false)
  const [secret, setSecret] = useState<{ name: string; key: string }>()
  const [revoking, setRevoking] = useState<{ id: number; name: string }>()

  const createKey = useCreateKey()
  const revoke = useRevokeKey()
  const create = useCheckedSubmit({
    validate: () => checkKeyDraft(draft, utcDay(new Date())),
    send: async () => {
      const name = draft.name.trim()
      const created = await createKey.mutateAsync({ name, ...(draft.expires ? { expires: `${draft.expires} 23:59:59` } : {}), ...(readOnly ? { readonly: true } : {}) })
      setSecret({ name, key: created.key })
      setDraft({ name: '', expires: '' })
      setReadOnly(false)
    },
    fields: KEY_FIELDS,
  })

  return (
    <section className="card stack wide" aria-labelledby="keys-title">
      <div>
        <h2 id="keys-title">API keys</h2>
        <p className="muted small">For scripts and integrations: send <code>Authorization: Bearer &lt;key&gt;</code> with every request.</p>
      </div>
      <RoleNote id="keys-role-reason" needed="admin" allowed={mayManage} />
      {mayManage && (<>
      <form className="inline-form" onSubmit={create.submit} noValidate aria-label="Create an API key">
        <Field label="Key name" error={create.errors.name}>
          <input type="text" value={draft.name} placeholder="Zapier" onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
        </Field>
        <Field label="Expires on" optional error={create.errors.expires}>
          <input type="date" value={draft.expires} min={utcDay(new Date(Date.now() + 86_400_000))} onChange={(event) => setDraft({ ...draft, expires: event.target.value })} />
        </Field>
        <label className="checkbox align-end">
          <input type="checkbox" checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} />
          Read only
        </label>
        <button type="submit" className="button primary" disabled={create.submitting}>{create.submitting ? 'Creating…' : 'Create key'}</button>
      </form>
      <FormError message={create.formError} />
      {secret && (
        <div className="stack" role="status">
          <p className="small"><strong>Copy the key "{secret.name}" now.</strong> It is shown only this once.</p>
          <div className="secret">
            <code aria-label="New API key">{secret.key}</code>
            <CopyButton text={secret.key} label="Copy key" className="button small primary" />
            <button type="button" className="button small ghost" onClick={() => setSecret(undefined)}>Done</button>
          </div>
        </div>
      )}
      {keys.isPending ? <Loading label="Loading keys…" /> : keys.isError ? <ErrorMessage error={keys.error} onRetry={() => keys.refetch()} /> : keys.data.length === 0 ? (
        <EmptyState title="No API keys"><p className="muted small">Create one to use the API from another program.</p></EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="table compact stack-table">
            <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Access</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td data-label="Name"><strong>{key.name || 'Unnamed key'}</strong></td>
                  <td data-label="Key"><code>{key.prefix}…</code></td>
                  <td data-label="Access">{accessOf(key)}</td>
                  <td className="nowrap" data-label="Created">{formatDate(key.created)}</td>
                  <td className="nowrap" data-label="Last used">{key.lastused ? formatDateTime(key.lastused) : <span className="muted">Never</span>}</td>
                  <td className="nowrap" data-label="Expires">{key.expires ? formatDate(key.expires) : <span className="muted">Never</span>}</td>
                  <td className="actions"><button type="button" className="button small ghost danger-text" onClick={() => setRevoking({ id: key.id, name: key.name })}>Revoke<span className="visually-hidden"> {key.name}</span></button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      </>)}
      {revoking && (
        <ConfirmDialog title="Revoke this key?" confirmLabel="Revoke key" busy={revoke.isPending} error={revoke.isError ? messageOf(revoke.error) : undefined} onConfirm={() => revoke.mutate(revoking.id, { onSuccess: () => setRevoking(undefined) })} onCancel={() => { setRevoking(undefined); revoke.reset() }}>
          <p>Programs using <strong>{revoking.name || 'this key'}</strong> will be refused from now on.</p>
        </ConfirmDialog>
      )}
    </section>
  )
}
