// Request and response schemas of /api/account (the account's keys: modules/api-keys/api-key.schemas.ts).
import { Type } from 'typebox'
import { Clearable, DateTime, UpdateBody } from '../../core/schemas.js'
import { LIMITED_RESOURCES } from '../plans/plan-limits.js'
import { CLICK_ID_PARAMETER_MAX, CLICK_ID_PARAMETER_PATTERN, CLICK_ID_PARAMETER_RULE, MAX_ATTRIBUTION_DAYS } from '../../core/click-ids.js'

export const Account = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  username: Type.String(),
  avatar: Type.String(),
  status: Type.String({ description: 'plan status, e.g. `pro`' }),
  expires: Type.Union([DateTime, Type.Null()], { description: 'plan expiry; null when the plan does not expire' }),
  registered: DateTime,
  planid: Type.Integer(),
})

export const AccountResponse = Type.Object({ error: Type.Literal(0), data: Account })

/** The workspace's conversion settings (issue 39, ADR 034), as PUT /api/account/update takes them. */
const conversionSettingFields = {
  trackconversions: Type.Optional(Type.Boolean({ description: 'whether links created without `trackconversions` track conversions; false until set', errorMessage: 'must be true or false' })),
  clickidparameter: Type.Optional(Type.String({ minLength: 1, maxLength: CLICK_ID_PARAMETER_MAX, pattern: CLICK_ID_PARAMETER_PATTERN, description: 'the query parameter a click id is appended to destinations as; `lw_id` until set', errorMessage: CLICK_ID_PARAMETER_RULE })),
  querypassthrough: Type.Optional(Type.Boolean({ description: 'whether visitors\' own query parameters reach the destinations of links that do not say otherwise (`passthrough`); false until set', errorMessage: 'must be true or false' })),
  trackingorigins: Type.Optional(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 50, description: 'origins (`https://shop.example`) whose pages may call the tracking API from a browser (CORS); [] for none', errorMessage: 'must be a list of at most 50 origins such as https://shop.example' })),
  customeremails: Type.Optional(Type.Boolean({ description: 'whether customers\' e-mail addresses sent with leads are stored; true until set (false: left out)', errorMessage: 'must be true or false' })),
  stripesigningsecret: Type.Optional(Clearable(Type.String({ minLength: 1, maxLength: 300 }), 'removes the secret (the address stays, refusing events until a secret is set); sent first, it makes the address to give Stripe, which shows its secret only once it has the address', { errorMessage: 'must be the signing secret Stripe shows for the endpoint (whsec_…), or empty to remove it' })),
  attributiondays: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ATTRIBUTION_DAYS, description: 'days after a click a lead can still be attributed to it; 90 until set', errorMessage: `must be a whole number of days from 1 to ${MAX_ATTRIBUTION_DAYS}` })),
}

export const AccountUpdateBody = UpdateBody({
  email: Type.Optional(Type.String({ maxLength: 254 })),
  password: Type.Optional(Type.String({ maxLength: 256 })),
  timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone (`Europe/Berlin`) the workspace\'s statistics count days, hours, weeks and months in by default; `UTC` until set' })),
  ...conversionSettingFields,
})

/** GET /api/account/settings: the workspace's settings beyond the spec's account. */
export const AccountSettingsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    timezone: Type.String({ description: 'IANA time zone of the workspace\'s statistics' }),
    trackconversions: Type.Boolean({ description: 'whether new links track conversions unless they say otherwise' }),
    clickidparameter: Type.String({ description: 'the query parameter click ids are appended as' }),
    querypassthrough: Type.Boolean({ description: 'whether visitors\' query strings reach destinations of links that do not say otherwise' }),
    attributiondays: Type.Integer({ description: 'days after a click a lead can be attributed to it' }),
    trackingorigins: Type.Array(Type.String(), { description: 'origins whose pages may call the tracking API from a browser' }),
    customeremails: Type.Boolean({ description: 'whether customers\' e-mail addresses are stored' }),
    stripewebhookurl: Type.Union([Type.String(), Type.Null()], { description: 'the address to give Stripe as the webhook endpoint (checkout.session.completed, invoice.paid, charge.refunded); null until made by a first `stripesigningsecret` (`""` makes it without a secret); events are refused (404) while no secret is set' }),
    stripesigningsecretset: Type.Boolean({ description: 'whether a Stripe signing secret is set (it is never shown)' }),
  }),
})

/** PUT /api/account/password: the dashboard's password change, which confirms the current one. */
export const PasswordChangeBody = Type.Object({
  current: Type.String({ maxLength: 256 }),
  password: Type.String({ maxLength: 256, description: 'the new password, 8 to 256 characters' }),
})

/** GET /api/account/limits: what the account may do: administer, and how many of each limited resource. */
export const LimitsResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    planid: Type.Integer(),
    admin: Type.Boolean({ description: 'the account may call the administration endpoints' }),
    resources: Type.Array(Type.Object({
      resource: Type.Enum([...LIMITED_RESOURCES]),
      used: Type.Integer({ minimum: 0 }),
      limit: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'null: the plan sets no limit' }),
    })),
  }),
})
