// The process's logger: JSON lines (pino) at LOG_LEVEL. API keys never reach the logs.
import { pino, type Logger } from 'pino'
import type { Config } from './config.js'

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.authorization', 'headers.authorization'] })
}
