// One webhook: its state (and why it is switched off), its events, editing, a test event, and its
// delivery log: every delivery's status, attempts, the last request (headers and body) and answer
// (status, time, body), the next try, and a retry.
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { formatDateTime } from '../components/format'
import { usePageParam } from '../components/list-page'
import { FormError } from '../components/FormError'
import { PageHeader } from '../components/PageHeader'
import { Pagination } from '../components/Pagination'
import { EmptyState, ErrorMessage, Loading } from '../components/States'
import { WebhookForm } from './WebhookForm'
import { ALL_EVENTS } from './webhook-events'
import { WebhookState } from './WebhooksPage'
import { useDeliveries, useRetryDelivery, useUpdateWebhook, useWebhook, useWebhookAction, type Delivery, type Webhook, type WebhookAction } from './webhook-queries'
import './webhooks.css'

export function WebhookDetailPage() {
  const id = Number(useParams().id)
  const webhook = useWebhook(id)
  if (webhook.error) return <ErrorMessage error={webhook.error} onRetry={() => webhook.refetch()} />
  if (!webhook.data) return <Loading label="Loading the webhook…" />
  return <WebhookDetail webhook={webhook.data} />
}

function WebhookDetail({ webhook }: { webhook: Webhook }) {
  const [page, setPage] = usePageParam()
  const deliveries = useDeliveries(webhook.id, page)
  const [editing, setEditing] = useState(false)
  const [notice, setNotice] = useState<string>()
  const update = useUpdateWebhook()
  const act = useWebhookAction()
  const run = (action: WebhookAction) => act.mutate({ id: webhook.id, action }, {
    onSuccess: () => setNotice(action === 'test' ? 'A test event is on its way: it appears in the log below.' : action === 'off' ? 'Switched off: it receives nothing until you switch it on.' : 'Switched on again.'),
  })

  return (
    <>
      <PageHeader
        title="Webhook"
        description={<><span className="webhook-url webhook-heading-url">{webhook.url}</span><Link to="/webhooks">← All webhooks</Link></>}
        actions={(
          <>
            {webhook.enabled && <button type="button" className="button" disabled={act.isPending} onClick={() => run('test')}>Send test</button>}
            <button type="button" className="button ghost" disabled={act.isPending} onClick={() => run(webhook.enabled ? 'off' : 'on')}>{webhook.enabled ? 'Switch off' : 'Switch on'}</button>
            <button type="button" className="button ghost" onClick={() => setEditing(!editing)}>{editing ? 'Close editing' : 'Edit'}</button>
          </>
        )}
      />
      {notice && <p className="notice" role="status">{notice}</p>}
      <FormError error={act.error} />
      {!webhook.enabled && (
        <div className="webhook-off-panel" role="note" aria-label="Switched off">
          <strong>Switched off{webhook.disabledAt ? ` on ${formatDateTime(webhook.disabledAt)}` : ''}.</strong>
          <span>{webhook.disabledReason ?? 'It receives no events.'}</span>
          <span className="small">Switch it on to receive new events; failed deliveries can then be retried one by one.</span>
        </div>
      )}
      {webhook.enabled && webhook.failingSince && (
        <div className="webhook-failing-panel" role="note" aria-label="Failing">
          <strong>Every delivery has failed since {formatDateTime(webhook.failingSince)}.</strong>
          <span>It is switched off if none succeeds within 3 days of that.</span>
        </div>
      )}
      <section className="card stack" aria-labelledby="webhook-settings-title">
        <div className="webhook-summary">
          <h2 id="webhook-settings-title">Settings</h2>
          <WebhookState webhook={webhook} />
        </div>
        {editing ? (
          <WebhookForm
            mode="edit"
            initial={{ url: webhook.url, description: webhook.description, events: ALL_EVENTS.filter((type) => webhook.events.includes(type)) }}
            submitLabel="Save webhook"
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              await update.mutateAsync({ id: webhook.id, body: { url: values.url, events: values.events, description: values.description } })
              setEditing(false)
              setNotice('Webhook saved.')
            }}
          />
        ) : (
          <dl className="webhook-facts">
            <div><dt>Description</dt><dd>{webhook.description || <span className="muted">None</span>}</dd></div>
            <div><dt>Events</dt><dd className="badges">{webhook.events.map((type) => <code key={type} className="badge">{type}</code>)}</dd></div>
            <div><dt>Added</dt><dd>{formatDateTime(webhook.date)}</dd></div>
          </dl>
        )}
      </section>
      <section className="stack" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        {deliveries.error ? <ErrorMessage error={deliveries.error} onRetry={() => deliveries.refetch()} /> : !deliveries.data ? <Loading label="Loading deliveries…" /> : deliveries.data.deliveries.length === 0 ? (
          <div className="card"><EmptyState title="No deliveries yet"><p className="muted">Events you subscribed to appear here as they are sent. Send a test to see one now.</p></EmptyState></div>
        ) : (
          <div className="card table-card">
            <ul className="org-list" aria-label="Deliveries">
              {deliveries.data.deliveries.map((delivery) => <DeliveryRow key={delivery.id} delivery={delivery} webhookEnabled={webhook.enabled} />)}
            </ul>
            <Pagination page={page} maxPage={deliveries.data.maxpage} total={deliveries.data.result} onPage={setPage} />
          </div>
        )}
      </section>
    </>
  )
}

const STATUS_LABELS: Record<Delivery['status'], string> = { delivered: 'Delivered', pending: 'Retrying', failed: 'Failed' }

function DeliveryRow({ delivery, webhookEnabled }: { delivery: Delivery; webhookEnabled: boolean }) {
  const retry = useRetryDelivery()
  const status = delivery.status === 'pending' && delivery.attempts === 0 ? 'Queued' : STATUS_LABELS[delivery.status]
  return (
    <li className="delivery-row" aria-label={`${delivery.type} ${delivery.event}`}>
      <div className="delivery-head">
        <div className="org-main">
          <span className="org-title"><code>{delivery.type}</code></span>
          <span className="muted small delivery-event">{delivery.event} · {formatDateTime(delivery.date)}</span>
        </div>
        <span className={`badge delivery-status ${delivery.status}`}>{status}</span>
        <div className="delivery-numbers small">
          <span>{delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}</span>
          {delivery.responseCode !== null && <span>HTTP {delivery.responseCode}</span>}
          {delivery.responseTime !== null && <span>{delivery.responseTime} ms</span>}
        </div>
        <div className="org-actions">
          {delivery.status !== 'delivered' && webhookEnabled && (
            <button type="button" className="button small" disabled={retry.isPending} onClick={() => retry.mutate(delivery.id)}>{retry.isPending ? 'Retrying…' : 'Retry now'}<span className="visually-hidden"> {delivery.event}</span></button>
          )}
        </div>
      </div>
      {delivery.error && <p className="delivery-error small">{delivery.error}</p>}
      <FormError error={retry.error} small />
      <p className="muted small">
        {delivery.lastTry ? <>Last try {formatDateTime(delivery.lastTry)}. </> : null}
        {delivery.nextTry ? <>Next try {formatDateTime(delivery.nextTry)}.</> : null}
      </p>
      <details className="delivery-details">
        <summary>Request and response</summary>
        <div className="delivery-exchange">
          <div>
            <h3>Request</h3>
            <pre>{delivery.request.headers ? Object.entries(delivery.request.headers).map(([name, value]) => `${name}: ${value}`).join('\n') + '\n\n' : ''}{pretty(delivery.request.body)}</pre>
          </div>
          <div>
            <h3>Response</h3>
            <pre>{delivery.responseCode === null ? (delivery.error ?? 'No answer yet.') : `HTTP ${delivery.responseCode}${delivery.responseTime === null ? '' : ` in ${delivery.responseTime} ms`}\n\n${delivery.responseBody ?? ''}`}</pre>
          </div>
        </div>
      </details>
    </li>
  )
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}
