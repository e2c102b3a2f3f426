// What queries read from one table, counted by a Kysely plugin on a database handle: the columnar
// store's tests check it reads back no click it was handed, the webhook tests that the outbox is
// not read back for deliveries handed over.
import type { KyselyPlugin, RootOperationNode, TableNode } from 'kysely'

/** True for a select that reads `table`: from it, or joined to it. */
function readsTable(node: RootOperationNode, table: string): boolean {
  if (node.kind !== 'SelectQueryNode') return false
  const tables = [...(node.from?.froms ?? []), ...(node.joins ?? []).map((join) => join.table)]
  return tables.some((from) => from.kind === 'TableNode' && (from as TableNode).table.identifier.name === table)
}

export interface TableReads {
  /** Add to a handle: `db.withPlugin(reads.plugin)`. */
  plugin: KyselyPlugin
  /** Selects that read the table since the last `reset`. */
  readonly queries: number
  /** Rows those selects answered. */
  readonly rows: number
  reset(): void
}

export function countingReadsOf(table: string): TableReads {
  const reading = new WeakSet<object>()
  let queries = 0
  let rows = 0
  return {
    plugin: {
      transformQuery({ node, queryId }) {
        if (readsTable(node, table)) {
          reading.add(queryId)
          queries += 1
        }
        return node
      },
      async transformResult({ result, queryId }) {
        if (reading.has(queryId)) rows += result.rows.length
        return result
      },
    },
    get queries() {
      return queries
    },
    get rows() {
      return rows
    },
    reset() {
      queries = 0
      rows = 0
    },
  }
}
