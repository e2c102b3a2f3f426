// The id of a request: the caller's X-Request-Id when it is a plain token (a proxy's id carries
// through to our logs and answers), else a random one. Every answer carries it (app.ts).
import { randomUUID } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'

const GIVEN_ID = /^[\w.-]{1,64}$/

/** The request id of a request with these headers. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id']
  return typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID()
}
