// `linkwell audit prune`: the audit log's retention (AUDIT_RETENTION_DAYS), as `clicks prune` is the raw clicks'.
import { retentionDays, type Command } from './command.js'

export const AUDIT_COMMANDS: Command[] = [
  {
    name: 'audit prune',
    usage: '[--days N]',
    summary: 'delete audit log entries older than N days (default AUDIT_RETENTION_DAYS, 365)',
    options: { days: { type: 'string' } },
    async run(values, { audit, config }) {
      const days = retentionDays(values, config.auditRetentionDays)
      return { ...(await audit.prune(days)), days }
    },
  },
]
