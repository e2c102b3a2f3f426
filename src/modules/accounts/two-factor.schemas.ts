// Request and response schemas of two-factor sign-in (ADR 025): the person's own second factor
// under /api/auth/two-factor, and a workspace's requirement.
import { Type } from 'typebox'
import { Account } from './account.schemas.js'

export const SignInStep = Type.Union([Type.Literal('code'), Type.Literal('enrol')], {
  description: '`code`: the password was right, send a code to POST /api/auth/two-factor/verify; `enrol`: the workspace requires a second factor, set one up first',
})

/** POST /api/auth/login and GET /api/auth/session: the account, or null while the second factor is still to come. */
export const SignInResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Union([Account, Type.Null()], { description: 'the signed-in account; null when no session is live or it waits for its code' }),
  step: Type.Optional(SignInStep),
})

export const CodeBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 32, description: 'six digits from the authenticator app, or a recovery code', errorMessage: 'must be a six-digit code or a recovery code' }),
})

export const TwoFactorStatusResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    enabled: Type.Boolean({ description: 'whether you sign in with a second factor' }),
    recoverycodes: Type.Integer({ description: 'recovery codes not used yet' }),
    required: Type.Boolean({ description: 'whether this workspace requires a second factor of every member' }),
  }),
})

export const EnrolmentResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    secret: Type.String({ description: 'the secret in base32, for typing into the app by hand' }),
    uri: Type.String({ description: 'the otpauth:// URI the QR code holds' }),
    qr: Type.String({ description: 'the QR code as an SVG data URI' }),
  }),
})

export const RecoveryCodesResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ recoverycodes: Type.Array(Type.String(), { description: 'ten single-use codes, shown this once' }) }),
})

export const RequirementBody = Type.Object({
  required: Type.Boolean({ description: 'true: every member signs in with a second factor (members without one set it up at their next request)', errorMessage: 'must be true or false' }),
})
