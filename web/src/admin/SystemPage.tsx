// Administration: how this Linkwell runs. For now which engine answers the statistics pages (issue
// 40, ADR 035): the raw clicks in the database, the DuckDB columnar store (and the highest click it
// holds), or ClickHouse (and how far the feeder that copies clicks into it has come).
import { formatDateTime } from '../components/format'
import { PageHeader } from '../components/PageHeader'
import { ErrorMessage, Loading } from '../components/States'
import { useSystem, type SystemStatus } from './admin-queries'
import './admin.css'

const ENGINES: Record<SystemStatus['statistics']['engine'], { name: string; about: string }> = {
  raw: { name: 'Raw clicks', about: 'Statistics are counted from the clicks in the database: exact, and slow past a few hundred thousand clicks a workspace.' },
  duckdb: { name: 'DuckDB columnar store', about: 'Statistics are answered from a columnar copy of the clicks beside the database (one server process).' },
  clickhouse: { name: 'ClickHouse', about: 'Every instance answers statistics from ClickHouse; one at a time copies the committed clicks into it.' },
}

export function SystemPage() {
  const system = useSystem()
  return (
    <>
      <PageHeader title="System" description="Which engine answers the statistics pages, and how far it has come." />
      {system.isPending ? <Loading label="Loading the system…" /> : system.isError ? <ErrorMessage error={system.error} onRetry={() => system.refetch()} /> : (
        <div className="card">
          <h2>Statistics engine: {ENGINES[system.data.statistics.engine].name}</h2>
          <p>{ENGINES[system.data.statistics.engine].about}</p>
          <dl>
            {system.data.statistics.duckdb ? (
              <>
                <dt>File</dt><dd>{system.data.statistics.duckdb.file}</dd>
                <dt>Highest click held</dt><dd>{system.data.statistics.duckdb.lastId}</dd>
              </>
            ) : null}
            {system.data.statistics.clickhouse ? (
              <>
                <dt>Database</dt><dd>{system.data.statistics.clickhouse.database}</dd>
                {system.data.statistics.clickhouse.feed ? (
                  <>
                    <dt>Copied up to click</dt><dd>{system.data.statistics.clickhouse.feed.lastId}</dd>
                    <dt>Clicks copied</dt><dd>{system.data.statistics.clickhouse.feed.fedClicks}</dd>
                    <dt>Last copy</dt><dd>{system.data.statistics.clickhouse.feed.fedAt ? formatDateTime(system.data.statistics.clickhouse.feed.fedAt) : 'not yet'}</dd>
                    <dt>Clicks not committed yet, looked for again</dt><dd>{system.data.statistics.clickhouse.feed.gaps}</dd>
                    <dt>Feeder</dt><dd>{system.data.statistics.clickhouse.feed.leased ? 'an instance holds the lease' : 'no instance feeds now'}</dd>
                  </>
                ) : null}
              </>
            ) : null}
          </dl>
        </div>
      )}
    </>
  )
}
