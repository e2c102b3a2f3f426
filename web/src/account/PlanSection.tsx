// What the account uses of its plan: every limited resource as "3 of 10 campaigns", with a bar,
// and the resources the plan does not limit.
import { ErrorMessage, Loading } from '../components/States'
import { RESOURCE_NOUNS, usageText } from '../usage/plan-usage'
import { useAccount, usePlanUsage } from './account-queries'
import './PlanSection.css'

export function PlanSection() {
  const usage = usePlanUsage()
  const plan = useAccount().data?.status
  return (
    <section className="card stack wide" aria-labelledby="plan-title">
      <div>
        <h2 id="plan-title">Plan and usage</h2>
        <p className="muted small">{plan ? <>You are on the <strong>{plan}</strong> plan. </> : null}An administrator can move you to a larger plan.</p>
      </div>
      {usage.isPending ? <Loading label="Loading your usage…" /> : usage.isError ? <ErrorMessage error={usage.error} onRetry={() => usage.refetch()} /> : (
        <ul className="plan-usage-list">
          {usage.data.resources.map((entry) => {
            const full = entry.limit !== null && entry.used >= entry.limit
            const share = entry.limit === null ? 0 : entry.limit === 0 ? 100 : Math.min(100, (entry.used / entry.limit) * 100)
            return (
              <li key={entry.resource} className={full ? 'at-limit' : undefined} data-testid={`plan-usage-${entry.resource}`}>
                <span className="plan-usage-text">{usageText(entry.resource, entry)}</span>
                {entry.limit === null
                  ? <span className="muted small">No limit</span>
                  : <span className="plan-usage-meter" role="meter" aria-label={`${RESOURCE_NOUNS[entry.resource][1]} used`} aria-valuemin={0} aria-valuemax={entry.limit} aria-valuenow={Math.min(entry.used, entry.limit)}><span style={{ width: `${share}%` }} /></span>}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
