// Request and response schemas of the mailed links (issue 38): forgotten passwords, sign-up, e-mail changes.
import { Type } from 'typebox'

/** A link's token as the dashboard reads it from the fragment. */
const Token = Type.String({ minLength: 1, maxLength: 256, description: 'the token of the mailed link (after `#token=`)', errorMessage: 'must be the token of the mailed link' })
const NewPassword = Type.String({ maxLength: 256, description: 'the new password, 8 to 256 characters' })

export const ForgotPasswordBody = Type.Object({
  login: Type.String({ minLength: 1, maxLength: 254, description: 'username or e-mail address', errorMessage: 'must be a username or an e-mail address' }),
})

export const ResetPasswordBody = Type.Object({ token: Token, password: NewPassword })

export const SignUpBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 64, description: '3 to 32 letters, digits, _ and -; made from the address when absent' })),
  email: Type.String({ maxLength: 254 }),
  password: NewPassword,
})

export const TokenBody = Type.Object({ token: Token })

export const EmailChangeBody = Type.Object({
  email: Type.String({ maxLength: 254, description: 'the new sign-in address; a link to confirm it is mailed there' }),
  current: Type.Optional(Type.String({ maxLength: 256, description: 'the current password (required unless the session signed in through single sign-on moments ago)' })),
})

export const AuthOptionsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    signup: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('domains')], { description: 'who may make an account here (SIGNUP)' }),
    domains: Type.Optional(Type.Array(Type.String(), { description: 'with `domains`: the address domains sign-up takes (SIGNUP_DOMAINS)' })),
    mail: Type.Boolean({ description: 'whether the instance can send mail (forgotten passwords, e-mail changes)' }),
  }),
})
