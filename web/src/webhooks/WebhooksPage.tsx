// The account's webhooks: add one with an event picker (its signing secret shown once, with a copy
// button), see which are on, failing or switched off (and why), send a test, switch one off or on,
// delete; each webhook's delivery log is one click away.
import { useState } from 'react'
import { Link } from 'react-router'
import { CopyButton } from '../components/CopyButton'
import { DeleteRecordDialog } from '../components/DeleteRecordDialog'
import { formatDate, formatDateTime } from '../components/format'
import { usePageParam } from '../components/list-page'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { WebhookForm } from './WebhookForm'
import { useCreateWebhook, useDeleteWebhook, useWebhookAction, useWebhookPage, type Webhook, type WebhookAction } from './webhook-queries'
import './webhooks.css'

export function WebhooksPage() {
  const [page, setPage] = usePageParam()
  const webhooks = useWebhookPage(page)
  const create = useCreateWebhook()
  const [creating, setCreating] = useState(false)
  const [secret, setSecret] = useState<{ url: string; secret: string }>()
  const [deleting, setDeleting] = useState<Webhook>()
  const [notice, setNotice] = useState<string>()
  const startCreating = () => { setCreating(true); setSecret(undefined); setNotice(undefined) }

  const act = useWebhookAction()
  const run = (webhook: Webhook, action: WebhookAction) => act.mutate({ id: webhook.id, action }, {
    onSuccess: () => setNotice(action === 'test' ? `A test event is on its way to ${webhook.url}: see its deliveries.` : action === 'off' ? `${webhook.url} is switched off: it receives nothing until you switch it on.` : `${webhook.url} is switched on again.`),
  })

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Tell your other systems what happens: each event is POSTed to your endpoint, signed (Standard Webhooks), and retried for 24 hours until it is received."
        actions={<button type="button" className="button primary" onClick={startCreating}>+ New webhook</button>}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      <FormError error={act.error} />
      {secret && (
        <section className="card stack" aria-labelledby="secret-title">
          <h2 id="secret-title">Signing secret of {secret.url}</h2>
          <p className="small"><strong>Copy it now: it is shown only this once.</strong> Your endpoint checks each event's <code>webhook-signature</code> header with it (any Standard Webhooks library does).</p>
          <div className="secret">
            <code aria-label="Signing secret">{secret.secret}</code>
            <CopyButton text={secret.secret} label="Copy secret" className="button small primary" />
            <button type="button" className="button small ghost" onClick={() => setSecret(undefined)}>Done</button>
          </div>
        </section>
      )}
      {creating && (
        <section className="card stack" aria-labelledby="new-webhook-title">
          <h2 id="new-webhook-title">New webhook</h2>
          <WebhookForm
            mode="create"
            initial={{ url: '', description: '', events: [] }}
            submitLabel="Add webhook"
            onCancel={() => setCreating(false)}
            onSubmit={async (values) => {
              const created = await create.mutateAsync({ url: values.url, events: values.events, ...(values.description ? { description: values.description } : {}) })
              setCreating(false)
              setSecret({ url: values.url, secret: created.secret })
            }}
          />
        </section>
      )}
      {webhooks.error ? <ErrorMessage error={webhooks.error} onRetry={() => webhooks.refetch()} /> : !webhooks.data ? <Loading label="Loading webhooks…" /> : webhooks.data.webhooks.length === 0 ? (
        !creating && (
          <div className="card">
            <EmptyState title="No webhooks yet">
              <p className="muted">Add your CRM's or your data pipeline's endpoint: new leads from contact forms, every recorded click, links created and changed arrive as they happen.</p>
              <button type="button" className="button primary" onClick={startCreating}>+ New webhook</button>
            </EmptyState>
          </div>
        )
      ) : (
        <div className={webhooks.isFetching ? 'card table-card refreshing' : 'card table-card'}>
          <ul className="org-list" aria-label="Webhooks">
            {webhooks.data.webhooks.map((webhook) => (
              <li key={webhook.id} className="org-row webhook-row">
                <div className="org-main">
                  <Link to={`/webhooks/${webhook.id}`} className="org-title webhook-url">{webhook.url}</Link>
                  {webhook.description && <span className="muted">{webhook.description}</span>}
                  <span className="badges">
                    <WebhookState webhook={webhook} />
                    <span className="badge">{webhook.events.length === 1 ? webhook.events[0] : `${webhook.events.length} events`}</span>
                    <span className="muted small">Added {formatDate(webhook.date)}</span>
                  </span>
                  {!webhook.enabled && webhook.disabledReason && <p className="webhook-off-reason small">{webhook.disabledReason}</p>}
                  {webhook.enabled && webhook.failingSince && <p className="webhook-failing small">Failing since {formatDateTime(webhook.failingSince)}: switched off after 3 days of failures.</p>}
                </div>
                <div className="org-actions">
                  <Link to={`/webhooks/${webhook.id}`} className="button small">Deliveries<span className="visually-hidden"> of {webhook.url}</span></Link>
                  {webhook.enabled && <button type="button" className="button small ghost" disabled={act.isPending} onClick={() => run(webhook, 'test')}>Send test<span className="visually-hidden"> to {webhook.url}</span></button>}
                  <button type="button" className="button small ghost" disabled={act.isPending} onClick={() => run(webhook, webhook.enabled ? 'off' : 'on')}>{webhook.enabled ? 'Switch off' : 'Switch on'}<span className="visually-hidden"> {webhook.url}</span></button>
                  <button type="button" className="button small ghost danger-text" onClick={() => setDeleting(webhook)}>Delete<span className="visually-hidden"> {webhook.url}</span></button>
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={page} maxPage={webhooks.data.maxpage} total={webhooks.data.result} onPage={setPage} />
        </div>
      )}
      {deleting && <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(undefined)} />}
    </>
  )
}

/** On, failing, or switched off. */
export function WebhookState({ webhook }: { webhook: Webhook }) {
  if (!webhook.enabled) return <span className="badge webhook-badge off">Switched off</span>
  if (webhook.failingSince) return <span className="badge webhook-badge failing">Failing</span>
  return <span className="badge webhook-badge on">On</span>
}

function DeleteWebhookDialog({ webhook, onClose }: { webhook: Webhook; onClose(): void }) {
  const deletion = useDeleteWebhook()
  return (
    <DeleteRecordDialog title="Delete this webhook?" confirmLabel="Delete webhook" deletion={deletion} id={webhook.id} onClose={onClose}>
      <p><strong>{webhook.url}</strong> will receive no more events, and its delivery log is deleted with it. This cannot be undone.</p>
    </DeleteRecordDialog>
  )
}
