// The administration forms' checks mirror the server's rules; bodies say "unlimited" by leaving out.
import { describe, expect, it } from 'vitest'
import { checkPlanDraft, checkUserDraft, emptyPlanDraft, limitsSummary, planDraftOf, planFieldOf, toPlanBody, toUserBody } from './admin-forms'

describe('the plan form', () => {
  it('accepts a plan with a rate and some limits, and sends only the limits given', () => {
    const draft = { ...emptyPlanDraft(), name: ' Small ', code: 'small', apirate: '30' }
    draft.limits.campaigns = '1'
    draft.limits.links = '0'
    expect(checkPlanDraft(draft)).toEqual({})
    expect(toPlanBody(draft)).toEqual({ name: 'Small', code: 'small', apirate: 30, limits: { campaigns: 1, links: 0 } })
    expect(toPlanBody({ ...draft, apirate: '' }).apirate).toBeNull()
  })

  it('names every field the server would refuse', () => {
    const draft = { ...emptyPlanDraft(), name: 'x', code: 'has space', apirate: '0' }
    draft.limits.links = '-1'
    draft.limits.qrcodes = '2.5'
    draft.limits.bio = 'ten'
    expect(Object.keys(checkPlanDraft(draft)).sort()).toEqual(['apirate', 'code', 'limits.bio', 'limits.links', 'limits.qrcodes', 'name'])
    expect(checkPlanDraft({ ...emptyPlanDraft(), name: 'Ok', code: 'ok', apirate: '1000001' }).apirate).toMatch(/1 to 1,000,000/)
  })

  it('reads a stored plan back into the form, unlimited as empty', () => {
    const draft = planDraftOf({ name: 'Pro', code: 'pro', apirate: null, limits: { campaigns: 3 } })
    expect(draft.apirate).toBe('')
    expect(draft.limits.campaigns).toBe('3')
    expect(draft.limits.links).toBe('')
  })

  it('summarises limits in words', () => {
    expect(limitsSummary({})).toBe('No limits')
    expect(limitsSummary({ campaigns: 1, links: 2 })).toBe('2 links, 1 campaign')
  })

  it('shows the fields the server names that the form has, and no other', () => {
    expect(planFieldOf('limits.links')).toBe('limits.links')
    expect(planFieldOf('code')).toBe('code')
    expect(planFieldOf('limits')).toBe('limits')
    expect(planFieldOf('limits.nothing')).toBeUndefined()
    expect(planFieldOf('default')).toBeUndefined()
  })
})

describe('the user form', () => {
  const valid = { email: 'ana@example.com', username: 'ana', password: '', planid: '', admin: false }
  it('accepts a user without a password or plan and leaves them out of the body', () => {
    expect(checkUserDraft(valid)).toEqual({})
    expect(toUserBody(valid)).toEqual({ email: 'ana@example.com', username: 'ana', admin: false })
    expect(toUserBody({ ...valid, password: 'long enough', planid: '4' })).toMatchObject({ password: 'long enough', planid: 4 })
  })
  it('refuses a bad e-mail, username and short password', () => {
    expect(Object.keys(checkUserDraft({ ...valid, email: 'ana', username: 'a b', password: 'short' })).sort()).toEqual(['email', 'password', 'username'])
  })
})
