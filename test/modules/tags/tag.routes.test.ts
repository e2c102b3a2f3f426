// Tags (issue 23): on links, QR codes and bio pages, made on first use, one per name whatever its
// case, renamed, coloured and deleted through /api/tag…; lists narrowed by `?tag=` (all must match).
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'

type Named = { alias?: string; name?: string; id: number; tags: string[] }

describe('tags', () => {
  const { context, owner, api, otherApi } = useTestApp()

  async function tagList(client = api) {
    return (await client('GET', '/api/tags?limit=100')).data.data.tags as { id: number; name: string; color: string | null; links: number; qrs: number; bios: number }[]
  }

  it('puts tags on a link on create and update, made on first use, one per name whatever its case; [] removes them', async () => {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/tagged', custom: 'tagged-one', tags: [' spring ', 'Print', 'SPRING'] })
    expect(created.statusCode, created.body).toBe(201)
    const { id } = created.data
    expect((await api('GET', `/api/url/${id}`)).data.details.tags).toEqual(['Print', 'spring'])
    const listed = (await api('GET', '/api/urls')).data.data.urls.find((entry: Named) => entry.id === id)
    expect(listed.tags).toEqual(['Print', 'spring'])

    // A second link naming the same tags in another case reuses them.
    const second = await api('POST', '/api/url/add', { url: 'https://example.com/tagged-2', custom: 'tagged-two', tags: ['print'] })
    expect((await api('GET', `/api/url/${second.data.id}`)).data.details.tags).toEqual(['Print'])
    expect((await tagList()).map((tag) => [tag.name, tag.links])).toEqual([['Print', 2], ['spring', 1]])

    // Left out or null: unchanged; a list replaces; [] clears.
    expect((await api('PUT', `/api/url/${id}/update`, { metatitle: 'Kept tags' })).statusCode).toBe(200)
    expect((await api('PUT', `/api/url/${id}/update`, { tags: null })).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details.tags).toEqual(['Print', 'spring'])
    expect((await api('PUT', `/api/url/${id}/update`, { tags: ['autumn'] })).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details.tags).toEqual(['autumn'])
    expect((await api('PUT', `/api/url/${id}/update`, { tags: [] })).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${id}`)).data.details.tags).toEqual([])

    // The journal: the tag made on first use has its own entry, with the link's.
    const audit = await context.database.db.selectFrom('audit_log').select(['action']).where('account_id', '=', owner.id).where('resource', 'in', ['tag', 'link']).orderBy('id').execute()
    expect(audit.map((row) => row.action).slice(0, 3)).toEqual(['tag.created', 'tag.created', 'link.created'])
    expect(audit.map((row) => row.action)).toContain('tag.created')
  })

  it('narrows GET /api/urls by tag: several must all match, in any case', async () => {
    const make = async (alias: string, tags: string[]) => (await api('POST', '/api/url/add', { url: `https://example.com/${alias}`, custom: alias, tags })).data.id
    await make('f-both', ['red', 'blue'])
    await make('f-red', ['red'])
    await make('f-blue', ['Blue'])
    const aliases = async (query: string) => ((await api('GET', `/api/urls?limit=100&${query}`)).data.data.urls as Named[]).map((entry) => entry.alias).sort()
    expect(await aliases('tag=red')).toEqual(['f-both', 'f-red'])
    expect(await aliases('tag=BLUE')).toEqual(['f-blue', 'f-both'])
    expect(await aliases('tag=red&tag=blue')).toEqual(['f-both'])
    expect(await aliases('tag=red&tag=nosuch')).toEqual([])
    expect((await api('GET', '/api/urls?tag=red&tag=blue')).data.data.result).toBe(1)
    // Another account's tag of the same name narrows nothing of its own.
    await otherApi('POST', '/api/url/add', { url: 'https://example.com/theirs', tags: ['red'] })
    expect(await aliases('tag=red')).toEqual(['f-both', 'f-red'])
    expect(((await otherApi('GET', '/api/urls?tag=red')).data.data.urls as Named[]).length).toBe(1)
  })

  it('renames, colours and deletes a tag; a deleted tag leaves every item', async () => {
    const link = (await api('POST', '/api/url/add', { url: 'https://example.com/r', tags: ['rename-me', 'stays'] })).data.id
    const qr = (await api('POST', '/api/qr/add', { type: 'text', data: 'hello', tags: ['rename-me'] })).data.id
    const bio = (await api('POST', '/api/bio/add', { name: 'Tagged bio', tags: ['rename-me'] })).data.id
    const tag = (await tagList()).find((entry) => entry.name === 'rename-me')!
    expect(tag).toMatchObject({ links: 1, qrs: 1, bios: 1, color: null })

    const renamed = await api('PUT', `/api/tag/${tag.id}/update`, { name: 'Renamed', color: '#1E90FF' })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.data).toMatchObject({ id: tag.id, name: 'Renamed', color: '#1e90ff' })
    expect((await api('GET', `/api/url/${link}`)).data.details.tags).toEqual(['Renamed', 'stays'])
    expect((await api('GET', `/api/qr/${qr}`)).data.details.tags).toEqual(['Renamed'])
    expect((await api('GET', `/api/bio/${bio}`)).data.data.tags).toEqual(['Renamed'])
    // "" puts the default color back; a name another tag has (any case) is a duplicate.
    expect((await api('PUT', `/api/tag/${tag.id}/update`, { color: '' })).data.color).toBeNull()
    const duplicate = await api('PUT', `/api/tag/${tag.id}/update`, { name: 'STAYS' })
    expect(duplicate.statusCode).toBe(400)
    expect(duplicate.data).toMatchObject({ error: 1, code: 'duplicate', field: 'name' })
    // Its own name in another case is a rename.
    expect((await api('PUT', `/api/tag/${tag.id}/update`, { name: 'renamed' })).data.name).toBe('renamed')

    expect((await otherApi('PUT', `/api/tag/${tag.id}/update`, { name: 'Theirs' })).statusCode).toBe(404)
    expect((await otherApi('DELETE', `/api/tag/${tag.id}/delete`)).statusCode).toBe(404)

    expect((await api('DELETE', `/api/tag/${tag.id}/delete`)).statusCode).toBe(200)
    expect((await api('GET', `/api/url/${link}`)).data.details.tags).toEqual(['stays'])
    expect((await api('GET', `/api/qr/${qr}`)).data.details.tags).toEqual([])
    expect((await api('GET', `/api/bio/${bio}`)).data.data.tags).toEqual([])
    expect((await api('DELETE', `/api/tag/${tag.id}/delete`)).statusCode).toBe(404)

    const audit = await context.database.db.selectFrom('audit_log').select(['action']).where('account_id', '=', owner.id).where('resource', '=', 'tag').where('resource_id', '=', tag.id).orderBy('id').execute()
    expect(audit.map((row) => row.action)).toEqual(['tag.created', 'tag.updated', 'tag.updated', 'tag.updated', 'tag.deleted'])
  })

  it('tags QR codes and bio pages, in their answers and lists, narrowed by ?tag=', async () => {
    const qr = (await api('POST', '/api/qr/add', { type: 'link', data: 'https://example.com/qr-tags', tags: ['poster', 'qr-only'] })).data.id
    const plainQr = (await api('POST', '/api/qr/add', { type: 'link', data: 'https://example.com/qr-plain' })).data.id
    expect((await api('GET', '/api/qr?tag=poster&tag=QR-ONLY')).data.data.qrs.map((entry: Named) => entry.id)).toEqual([qr])
    expect((await api('GET', '/api/qr?limit=100')).data.data.qrs.find((entry: Named) => entry.id === plainQr).tags).toEqual([])
    expect((await api('PUT', `/api/qr/${qr}/update`, { data: 'https://example.com/qr-tags', tags: ['poster'] })).statusCode).toBe(200)
    expect((await api('GET', `/api/qr/${qr}`)).data.details.tags).toEqual(['poster'])

    const bio = (await api('POST', '/api/bio/add', { name: 'Poster bio', tags: ['poster'] })).data.id
    expect((await api('GET', '/api/bio?tag=poster')).data.data.bio.map((entry: Named) => [entry.id, entry.tags])).toEqual([[bio, ['poster']]])
    expect((await api('PUT', `/api/bio/${bio}/update`, { tags: [] })).statusCode).toBe(200)
    expect((await api('GET', '/api/bio?tag=poster')).data.data.bio).toEqual([])
    expect((await tagList()).find((entry) => entry.name === 'poster')).toMatchObject({ links: 0, qrs: 1, bios: 0 })
  })

  it('exports a link\'s tags', async () => {
    await api('POST', '/api/url/add', { url: 'https://example.com/exported', custom: 'exported-tags', tags: ['b-tag', 'a-tag'] })
    const exported = await api('GET', '/api/export/links?format=json')
    const record = (JSON.parse(exported.body) as { alias: string; tags: string[] }[]).find((entry) => entry.alias === 'exported-tags')
    expect(record?.tags).toEqual(['a-tag', 'b-tag'])
  })

  it.each([
    ['a tag over 50 characters', { tags: ['x'.repeat(51)] }, 'tags.0'],
    ['a control character', { tags: ['ok', 'bell\u0007'] }, 'tags.1'],
    ['a blank tag', { tags: ['   '] }, 'tags.0'],
    ['more than 30 tags', { tags: Array.from({ length: 31 }, (_, index) => `t${index}`) }, 'tags'],
    ['a tag that is not text', { tags: [5] }, 'tags.0'],
    ['tags that are not a list', { tags: 'spring' }, 'tags'],
  ])('refuses %s with a 400 naming the field, on links, QR codes and bio pages', async (_case, body, field) => {
    for (const [path, base] of [['/api/url/add', { url: 'https://example.com/bad' }], ['/api/qr/add', { type: 'text', data: 'x' }], ['/api/bio/add', { name: 'Bad tags' }]] as const) {
      const response = await api('POST', path, { ...base, ...body })
      expect(response.statusCode, `${path} ${response.body}`).toBe(400)
      expect(response.data).toMatchObject({ error: 1, code: 'validation_failed', field })
    }
  })

  it('refuses a bad rename or colour, and a bad filter, with a 400 naming the field', async () => {
    await api('POST', '/api/url/add', { url: 'https://example.com/t', tags: ['bad-input'] })
    const tag = (await tagList()).find((entry) => entry.name === 'bad-input')!
    for (const [body, field] of [[{ name: 'x'.repeat(51) }, 'name'], [{ name: '  ' }, 'name'], [{ color: 'blue' }, 'color'], [{ name: 'a\u0000' }, 'name']] as const) {
      const response = await api('PUT', `/api/tag/${tag.id}/update`, body)
      expect(response.statusCode, response.body).toBe(400)
      expect(response.data).toMatchObject({ error: 1, field })
    }
    const filter = await api('GET', `/api/urls?tag=${'y'.repeat(51)}`)
    expect(filter.statusCode).toBe(400)
    expect(filter.data).toMatchObject({ error: 1, field: 'tag' })
  })
})
