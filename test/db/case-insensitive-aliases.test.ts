// The schema itself (migration 004) keeps aliases unique per host regardless of letter case, so
// two writers racing past the services' checks cannot both succeed.
import { describe, expect, it } from 'vitest'
import { insertLinkRow } from '../helpers/factories.js'
import { useTestApp } from '../helpers/test-app.js'

describe('aliases differing only in letter case', () => {
  const { context, owner } = useTestApp()

  it('cannot both exist on one host, even when written behind the services’ back', async () => {
    const db = context.database.db
    await insertLinkRow(db, owner.id, { alias: 'CaseRace' })
    await expect(insertLinkRow(db, owner.id, { alias: 'caserace' })).rejects.toThrow()
    // The same alias on another host is a different address.
    await expect(insertLinkRow(db, owner.id, { alias: 'caserace', host: 'go.example.com' })).resolves.toMatchObject({ alias: 'caserace' })
  })
})
