// `linkwell backup FILE` (a copy of the SQLite database while the server runs) and `linkwell migrate`
// (every command migrates first; this one does nothing else).
import { backupSqliteDatabase } from '../db/backup.js'
import { CliFailure, text, type Command } from './command.js'

export const DATABASE_COMMANDS: Command[] = [
  {
    name: 'backup',
    usage: 'FILE',
    summary: 'copy the SQLite database to FILE while the server runs (PostgreSQL: use pg_dump)',
    options: {},
    positional: 'file',
    async run(values, { config }) {
      try {
        return await backupSqliteDatabase(config.databaseUrl, text(values, 'file')!)
      } catch (error) {
        throw new CliFailure(`backup failed: ${(error as Error).message}`)
      }
    },
  },
  {
    name: 'migrate',
    usage: '',
    summary: 'apply pending database migrations',
    options: {},
    async run(_values, { applied }) {
      return { applied }
    },
  },
]
