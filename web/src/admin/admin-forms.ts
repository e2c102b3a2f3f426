// Client checks of the administration forms, mirroring the server's rules (decisions §6:
// Administration; src/modules/admin/plan.service.ts and the account service).
import { checkEmail } from '../account/account-forms'
import { RESOURCE_NOUNS, type LimitedResource } from '../usage/plan-usage'

export const PLAN_RESOURCES = Object.keys(RESOURCE_NOUNS) as LimitedResource[]
export const MAX_API_RATE = 1_000_000
const MAX_LIMIT = 2_147_483_647

export interface UserDraft {
  email: string
  username: string
  password: string
  /** '' for the default plan. */
  planid: string
  admin: boolean
}

export type UserErrors = Partial<Record<'email' | 'username' | 'password' | 'planid', string>>

export function checkUserDraft(draft: UserDraft): UserErrors {
  const errors: UserErrors = {}
  const email = checkEmail(draft.email)
  if (email) errors.email = email
  if (!/^[A-Za-z0-9_-]{3,32}$/.test(draft.username.trim())) errors.username = 'Use 3 to 32 letters, digits, _ or -.'
  if (draft.password !== '' && draft.password.length < 8) errors.password = 'Use at least 8 characters, or leave it empty.'
  else if (draft.password.length > 256) errors.password = 'Use at most 256 characters.'
  return errors
}

export function toUserBody(draft: UserDraft) {
  return {
    email: draft.email.trim(),
    username: draft.username.trim(),
    ...(draft.password ? { password: draft.password } : {}),
    ...(draft.planid ? { planid: Number(draft.planid) } : {}),
    admin: draft.admin,
  }
}

/** The fields of the user form, as POST /api/user/add names them. */
export const USER_FIELDS: ReadonlyArray<keyof UserErrors> = ['email', 'username', 'password', 'planid']

export interface PlanDraft {
  name: string
  code: string
  /** Requests per minute; '' for the server default. */
  apirate: string
  /** Per resource the maximum; '' for unlimited. */
  limits: Record<LimitedResource, string>
}

export type PlanErrors = Partial<Record<'name' | 'code' | 'apirate' | `limits.${LimitedResource}` | 'limits', string>>

export function emptyPlanDraft(): PlanDraft {
  return { name: '', code: '', apirate: '', limits: Object.fromEntries(PLAN_RESOURCES.map((resource) => [resource, ''])) as Record<LimitedResource, string> }
}

export function planDraftOf(plan: { name: string; code: string; apirate: number | null; limits: Record<string, number> }): PlanDraft {
  const draft = emptyPlanDraft()
  for (const resource of PLAN_RESOURCES) draft.limits[resource] = plan.limits[resource] === undefined ? '' : String(plan.limits[resource])
  return { ...draft, name: plan.name, code: plan.code, apirate: plan.apirate === null ? '' : String(plan.apirate) }
}

const WHOLE = /^\d+$/

export function checkPlanDraft(draft: PlanDraft): PlanErrors {
  const errors: PlanErrors = {}
  const name = draft.name.trim()
  if (name.length < 2 || name.length > 100) errors.name = 'Use 2 to 100 characters.'
  if (!/^[A-Za-z0-9_-]{2,32}$/.test(draft.code.trim())) errors.code = 'Use 2 to 32 letters, digits, _ or -.'
  const rate = draft.apirate.trim()
  if (rate !== '' && (!WHOLE.test(rate) || Number(rate) < 1 || Number(rate) > MAX_API_RATE)) errors.apirate = `Use a whole number from 1 to ${MAX_API_RATE.toLocaleString('en')}, or leave it empty.`
  for (const resource of PLAN_RESOURCES) {
    const limit = draft.limits[resource].trim()
    if (limit !== '' && (!WHOLE.test(limit) || Number(limit) > MAX_LIMIT)) errors[`limits.${resource}`] = 'Use a whole number of 0 or more, or leave it empty for no limit.'
  }
  return errors
}

export function toPlanBody(draft: PlanDraft) {
  const limits: Record<string, number> = {}
  for (const resource of PLAN_RESOURCES) {
    const limit = draft.limits[resource].trim()
    if (limit !== '') limits[resource] = Number(limit)
  }
  const rate = draft.apirate.trim()
  return { name: draft.name.trim(), code: draft.code.trim(), apirate: rate === '' ? null : Number(rate), limits }
}

/** The plan form's field for a field the server names: the same name, when the form has it. */
export function planFieldOf(field: string): keyof PlanErrors | undefined {
  const known = field === 'name' || field === 'code' || field === 'apirate' || field === 'limits' || PLAN_RESOURCES.some((resource) => field === `limits.${resource}`)
  return known ? (field as keyof PlanErrors) : undefined
}

/** "1 campaign, 2 links" — the limits a plan sets, or "No limits". */
export function limitsSummary(limits: Record<string, number>): string {
  const parts = PLAN_RESOURCES.filter((resource) => limits[resource] !== undefined).map((resource) => {
    const count = limits[resource]!
    const [one, many] = RESOURCE_NOUNS[resource]
    return `${count.toLocaleString('en')} ${count === 1 ? one : many}`
  })
  return parts.length === 0 ? 'No limits' : parts.join(', ')
}
