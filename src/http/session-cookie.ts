// The dashboard's session cookie: HttpOnly (scripts never see the token), SameSite=Lax, Path=/,
// and Secure with the `__Host-` prefix when PUBLIC_URL is https (the browser then refuses it
// over plain http and from any other host or path).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { parse, serialize } from 'cookie'
import { DAY_MS } from '../core/time.js'

export interface SessionCookie {
  readonly name: string
  /** The session token the request carries, if any. */
  read(request: FastifyRequest): string | undefined
  /** Sets the cookie for a new session (lives as long as the session). */
  set(reply: FastifyReply, token: string): void
  /** Tells the browser to forget the cookie. */
  clear(reply: FastifyReply): void
}

export function createSessionCookie(publicUrl: string, sessionDays: number): SessionCookie {
  const secure = new URL(publicUrl).protocol === 'https:'
  const name = secure ? '__Host-linkwell_session' : 'linkwell_session'
  const attributes = { httpOnly: true, sameSite: 'lax', path: '/', secure } as const

  return {
    name,
    read(request) {
      const header = request.headers.cookie
      if (!header) return undefined
      return parse(header)[name] || undefined
    },
    set(reply, token) {
      reply.header('set-cookie', serialize(name, token, { ...attributes, maxAge: Math.floor((sessionDays * DAY_MS) / 1000) }))
    },
    clear(reply) {
      reply.header('set-cookie', serialize(name, '', { ...attributes, maxAge: 0, expires: new Date(0) }))
    },
  }
}
