// The process's logger: JSON lines (pino) at LOG_LEVEL. API keys never reach the logs, nor do the
// invitation tokens a request URL may carry (issue 36).
import { pino, type Logger } from 'pino'
import type { Config } from './config.js'
import { decodedName, decodedOrAsSent } from './core/query-parameters.js'

const REDACTED = '[redacted]'

/**
 * A request URL as it may be logged: the token of an old invitation link
 * (`/app/invitation/<token>`) and the value of a `token` query parameter are masked, whatever their
 * percent-encoding.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?')
  const path = queryAt === -1 ? url : url.slice(0, queryAt)
  const segments = path.split('/')
  const isOldInvitationLink = segments.length > 3 && segments[3] !== '' && decodedOrAsSent(segments[1]!) === 'app' && decodedOrAsSent(segments[2]!) === 'invitation'
  const maskedPath = isOldInvitationLink ? [...segments.slice(0, 3), REDACTED, ...segments.slice(4)].join('/') : path
  if (queryAt === -1) return maskedPath
  const query = url.slice(queryAt + 1).split('&').map((pair) => {
    if (decodedName(pair).toLowerCase() !== 'token') return pair
    const equalsAt = pair.indexOf('=')
    return `${equalsAt === -1 ? pair : pair.slice(0, equalsAt)}=${REDACTED}`
  })
  return `${maskedPath}?${query.join('&')}`
}

/** What a request line says of the request: Fastify's fields, the URL redacted. */
interface LoggedRequest {
  method: string
  url: string
  host?: string
  ip?: string
  socket?: { remotePort?: number }
}

/** The `req` serializer of every request line; Fastify's own would log the URL as sent. */
export function serializeRequest(request: LoggedRequest) {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.authorization', 'headers.authorization'], serializers: { req: serializeRequest } })
}
