// Administration: the plans accounts are put on, each with its request rate and its limit per
// resource. Create a plan, change one (its accounts get the new limits at once), delete an unused one.
import { useState } from 'react'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { Field } from '../components/Field'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { useCheckedSubmit } from '../components/use-checked-submit'
import { RESOURCE_NOUNS } from '../usage/plan-usage'
import { checkPlanDraft, emptyPlanDraft, limitsSummary, PLAN_RESOURCES, planDraftOf, planFieldOf, toPlanBody, type PlanDraft } from './admin-forms'
import { useDeletePlan, usePlans, useSavePlan, type PlanEntry } from './admin-queries'
import './admin.css'

export function PlansPage() {
  const plans = usePlans()
  const [editing, setEditing] = useState<PlanEntry | 'new'>()
  const [deleting, setDeleting] = useState<PlanEntry>()
  const [notice, setNotice] = useState<string>()

  return (
    <>
      <PageHeader
        title="Plans"
        description="What each account may create, and how many API requests a minute it may send."
        actions={editing === undefined && <button type="button" className="button primary" onClick={() => { setEditing('new'); setNotice(undefined) }}>+ Create plan</button>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      {editing !== undefined && (
        <PlanForm
          key={editing === 'new' ? 'new' : editing.id}
          plan={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(undefined)}
          onSaved={(plan, created) => { setEditing(undefined); setNotice(created ? `Plan "${plan.name}" created. Put accounts on it from the Users page.` : `Plan "${plan.name}" saved. Its accounts have the new limits now.`) }}
        />
      )}
      {plans.isPending ? <Loading label="Loading plans…" /> : plans.isError ? <ErrorMessage error={plans.error} onRetry={() => plans.refetch()} /> : plans.data.length === 0 ? (
        <div className="card"><EmptyState title="No plans"><p className="muted">Create one to set what accounts may do.</p></EmptyState></div>
      ) : (
        <div className="card table-card">
          <table className="table admin-table plans-table">
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">API rate</th>
                <th scope="col">Limits</th>
                <th scope="col"><span className="visually-hidden">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {plans.data.map((plan) => (
                <tr key={plan.id}>
                  <td data-label="Plan">
                    <div className="link-cell">
                      <strong>{plan.name}</strong>
                      <span className="destination">Code: {plan.code}</span>
                      {plan.default && <span className="badges"><span className="badge campaign">Default for new accounts</span></span>}
                    </div>
                  </td>
                  <td data-label="API rate">{plan.apirate === null ? <span className="muted">Server default rate</span> : `${plan.apirate.toLocaleString('en')} requests a minute`}</td>
                  <td data-label="Limits" className="plan-limits">{limitsSummary(plan.limits)}</td>
                  <td className="actions">
                    <button type="button" className="button small" onClick={() => { setEditing(plan); setNotice(undefined); window.scrollTo({ top: 0 }) }}>Edit<span className="visually-hidden"> {plan.name}</span></button>
                    <button type="button" className="button small ghost danger-text" disabled={plan.default} title={plan.default ? 'New accounts are put on the default plan.' : undefined} onClick={() => setDeleting(plan)}>Delete<span className="visually-hidden"> {plan.name}</span></button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deleting && <DeletePlanDialog plan={deleting} onClose={() => setDeleting(undefined)} onDeleted={() => setNotice(`Plan "${deleting.name}" deleted.`)} />}
    </>
  )
}

function PlanForm({ plan, onCancel, onSaved }: { plan?: PlanEntry; onCancel(): void; onSaved(plan: PlanEntry, created: boolean): void }) {
  const save = useSavePlan()
  const [draft, setDraft] = useState<PlanDraft>(() => (plan ? planDraftOf(plan) : emptyPlanDraft()))
  const { errors, formError, submitting, submit } = useCheckedSubmit({
    validate: () => checkPlanDraft(draft),
    send: async () => onSaved(await save.mutateAsync({ id: plan?.id, body: toPlanBody(draft) }), !plan),
    fields: planFieldOf,
    summary: 'Some fields need a fix before the plan can be saved.',
  })

  return (
    <form className="card stack" onSubmit={submit} noValidate aria-label={plan ? `Edit plan ${plan.name}` : 'Create plan'}>
      <h2>{plan ? `Edit "${plan.name}"` : 'New plan'}</h2>
      <FormError message={formError} />
      <div className="plan-fields">
        <Field label="Plan name" error={errors.name}>
          <input type="text" value={draft.name} maxLength={100} placeholder="Starter" onChange={(event) => setDraft({ ...draft, name: event.target.value })} autoFocus />
        </Field>
        <Field label="Code" error={errors.code} hint="Shown to accounts as their plan status. 2–32 letters, digits, _ or -.">
          <input type="text" value={draft.code} maxLength={32} placeholder="starter" autoCapitalize="off" spellCheck={false} onChange={(event) => setDraft({ ...draft, code: event.target.value })} />
        </Field>
        <Field label="API requests per minute" optional error={errors.apirate} hint="Empty: the server's default rate.">
          <input type="text" inputMode="numeric" value={draft.apirate} placeholder="Server default" onChange={(event) => setDraft({ ...draft, apirate: event.target.value })} />
        </Field>
      </div>
      <fieldset className="plan-limits-fields">
        <legend>Limits <span className="muted small">(empty: unlimited; 0: not allowed)</span></legend>
        {errors.limits && <p className="field-error">{errors.limits}</p>}
        <div className="plan-limit-grid">
          {PLAN_RESOURCES.map((resource) => {
            const many = RESOURCE_NOUNS[resource][1]
            return (
              <Field key={resource} label={`Most ${many}`} error={errors[`limits.${resource}`]}>
                <input type="text" inputMode="numeric" value={draft.limits[resource]} placeholder="Unlimited" onChange={(event) => setDraft({ ...draft, limits: { ...draft.limits, [resource]: event.target.value } })} />
              </Field>
            )
          })}
        </div>
      </fieldset>
      <div className="row wrap">
        <button type="submit" className="button primary" disabled={submitting}>{submitting ? 'Saving…' : plan ? 'Save plan' : 'Create plan'}</button>
        <button type="button" className="button ghost" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}

function DeletePlanDialog({ plan, onClose, onDeleted }: { plan: PlanEntry; onClose(): void; onDeleted(): void }) {
  const deletion = useDeletePlan()
  return (
    <DeleteRecordDialog title={`Delete the plan "${plan.name}"?`} confirmLabel="Delete plan" deletion={deletion} id={plan.id} onClose={onClose} onDeleted={onDeleted}>
      <p>A plan some account is on cannot be deleted: move those accounts to another plan first.</p>
    </DeleteRecordDialog>
  )
}
