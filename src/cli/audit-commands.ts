// `linkwell audit prune`: the audit log's retention (AUDIT_RETENTION_DAYS), as `clicks prune` is the raw clicks'.
import { pruneCommand, type Command } from './command.js'

export const AUDIT_COMMANDS: Command[] = [
  pruneCommand({
    name: 'audit prune',
    summary: 'delete audit log entries older than N days (default AUDIT_RETENTION_DAYS, 365)',
    retentionOf: (config) => config.auditRetentionDays,
    async prune(days, { audit }) {
      return { ...(await audit.prune(days)), days }
    },
  }),
]
