// The `tags` column of a CSV import (README, import section): `a|b`, "a, b" in a quoted field, or a
// JSON list (Linkwell's own export); the tags are made on first use and attached to the link.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { actingAs } from '../../helpers/factories.js'
import { readTagList } from '../../../src/modules/imports/file-sources.js'

describe('tags in a CSV import', () => {
  const { context, owner, api } = useTestApp()

  it('reads the three spellings', () => {
    expect(readTagList('spring|print')).toEqual(['spring', 'print'])
    expect(readTagList('spring, print ,')).toEqual(['spring', 'print'])
    expect(readTagList('["a, b","c|d"]')).toEqual(['a, b', 'c|d'])
    expect(readTagList('[not json')).toBeUndefined()
  })

  it('creates and attaches tags, reporting a row whose tags cannot be', async () => {
    expect((await api('POST', '/api/url/add', { url: 'https://example.com/first', tags: ['Spring'] })).statusCode).toBe(201)
    const csv = [
      'url,alias,tags',
      'https://example.com/t1,csvtag-one,spring|print',
      'https://example.com/t2,csvtag-two,"print, poster"',
      'https://example.com/t3,csvtag-three,"[""json tag""]"',
      `https://example.com/t4,csvtag-four,${'x'.repeat(51)}`,
      'https://example.com/t5,csvtag-five,[broken',
    ].join('\n')
    const imports = context.services.imports
    const account = await actingAs(context, owner)
    const id = await imports.startFileImport(account, { source: 'csv', fileName: 'tags.csv', content: csv, options: { onconflict: 'skip' } })
    const job = await imports.runJob(id)
    expect(job).toMatchObject({ state: 'done', links_created: 3, rows_skipped: 2 })
    const tagsOf = async (alias: string) => {
      const link = await context.database.db.selectFrom('links').select('id').where('alias', '=', alias).executeTakeFirstOrThrow()
      return context.services.tags.namesOfOne('link', link.id)
    }
    // An existing tag is reused whatever the case of the file's spelling.
    expect((await tagsOf('csvtag-one')).sort()).toEqual(['Spring', 'print'])
    expect((await tagsOf('csvtag-two')).sort()).toEqual(['poster', 'print'])
    expect(await tagsOf('csvtag-three')).toEqual(['json tag'])
    const tags = await context.database.db.selectFrom('tags').select('name').where('account_id', '=', owner.id).orderBy('name').execute()
    expect(tags.map((tag) => tag.name).sort()).toEqual(['Spring', 'json tag', 'poster', 'print'])
    const problems = await context.database.db.selectFrom('import_problems').select(['line', 'reason']).where('job_id', '=', id).orderBy('line').execute()
    expect(problems).toEqual([
      { line: 5, reason: expect.stringContaining('tags') },
      { line: 6, reason: 'The tags could not be read: write them as a|b|c, "a, b, c" or a JSON list.' },
    ])
  })
})
