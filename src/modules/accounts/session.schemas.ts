// Request and response schemas of /api/auth: signing in and out of the dashboard, and its sessions.
import { Type } from 'typebox'
import { DateTime } from '../../core/schemas.js'

export const LoginBody = Type.Object({
  login: Type.String({ minLength: 1, maxLength: 254, description: 'username or e-mail address', errorMessage: 'must be a username or an e-mail address' }),
  password: Type.String({ minLength: 1, maxLength: 256, errorMessage: 'must be 1 to 256 characters' }),
})

/** A session id is the SHA-256 (hex) of its token: harmless to show, useless to sign in with. */
export const SessionId = Type.String({ pattern: '^[0-9a-f]{64}$', errorMessage: 'must be a session id (64 hexadecimal characters)' })

export const SessionParams = Type.Object({ id: SessionId })

export const Session = Type.Object({
  id: SessionId,
  created: DateTime,
  lastseen: DateTime,
  expires: DateTime,
  useragent: Type.String({ description: 'the browser at sign-in, shortened; empty when it sent none' }),
  ip: Type.String({ description: 'the client address at sign-in' }),
  current: Type.Boolean({ description: 'true for the session making this request' }),
})

export const SessionListResponse = Type.Object({ error: Type.Literal(0), data: Type.Object({ sessions: Type.Array(Session) }) })
