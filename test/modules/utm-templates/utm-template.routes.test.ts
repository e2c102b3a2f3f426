// UTM templates (issue 23): an account's named sets of UTM parameters, through the API.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'

describe('UTM templates', () => {
  const { context, owner, api, otherApi } = useTestApp()

  it('creates, lists, updates and deletes a template', async () => {
    const created = await api('POST', '/api/utm-template/add', { name: ' Newsletter ', utm: { source: 'newsletter', medium: 'email', term: '' } })
    expect(created.statusCode).toBe(201)
    expect(created.data).toMatchObject({ error: 0, name: 'Newsletter', utm: { source: 'newsletter', medium: 'email' } })
    expect(created.data.utm).not.toHaveProperty('term')
    const { id } = created.data

    const list = await api('GET', '/api/utm-templates')
    expect(list.data.error).toBe('0')
    expect(list.data.data.templates).toEqual([{ id, name: 'Newsletter', utm: { source: 'newsletter', medium: 'email' }, date: created.data.date }])

    expect((await api('PUT', `/api/utm-template/${id}/update`, { utm: { source: 'mail', campaign: 'june' } })).statusCode).toBe(200)
    expect((await api('PUT', `/api/utm-template/${id}/update`, { name: 'Monthly mail' })).statusCode).toBe(200)
    const [updated] = (await api('GET', '/api/utm-templates')).data.data.templates
    expect(updated).toMatchObject({ id, name: 'Monthly mail', utm: { source: 'mail', campaign: 'june' } })

    expect((await api('DELETE', `/api/utm-template/${id}/delete`)).statusCode).toBe(200)
    expect((await api('GET', '/api/utm-templates')).data.data.templates).toEqual([])
    expect((await api('DELETE', `/api/utm-template/${id}/delete`)).statusCode).toBe(404)

    const audit = await context.database.db.selectFrom('audit_log').select(['action', 'resource_id']).where('account_id', '=', owner.id).where('resource', '=', 'utm_template').orderBy('id').execute()
    expect(audit.map((row) => row.action)).toEqual(['utm_template.created', 'utm_template.updated', 'utm_template.updated', 'utm_template.deleted'])
  })

  it("keeps each account's templates its own", async () => {
    const created = await api('POST', '/api/utm-template/add', { name: 'Mine', utm: { source: 'x' } })
    expect((await otherApi('GET', '/api/utm-templates')).data.data.templates).toEqual([])
    expect((await otherApi('PUT', `/api/utm-template/${created.data.id}/update`, { name: 'Theirs' })).statusCode).toBe(404)
    expect((await otherApi('DELETE', `/api/utm-template/${created.data.id}/delete`)).statusCode).toBe(404)
  })

  it.each([
    ['no parameter', { name: 'Empty', utm: {} }, 'utm'],
    ['only empty parameters', { name: 'Empty', utm: { source: '  ' } }, 'utm'],
    ['a value over 200 characters', { name: 'Long', utm: { campaign: 'x'.repeat(201) } }, 'utm.campaign'],
    ['a control character', { name: 'Bell', utm: { source: 'a\u0007' } }, 'utm.source'],
    ['an unknown parameter', { name: 'Typo', utm: { sorce: 'x' } }, 'utm'],
    ['no name', { name: '', utm: { source: 'x' } }, 'name'],
    ['a blank name', { name: '   ', utm: { source: 'x' } }, 'name'],
  ])('refuses %s with a 400 naming the field', async (_case, body, field) => {
    const response = await api('POST', '/api/utm-template/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toMatchObject({ error: 1, code: 'validation_failed', field })
  })

  it('refuses an update that would leave no parameter', async () => {
    const created = await api('POST', '/api/utm-template/add', { name: 'Keep', utm: { source: 'x' } })
    const response = await api('PUT', `/api/utm-template/${created.data.id}/update`, { utm: { source: '' } })
    expect(response.statusCode).toBe(400)
    expect(response.data.field).toBe('utm')
  })
})
