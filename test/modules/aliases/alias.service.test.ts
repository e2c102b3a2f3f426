// The alias namespace against a real database (both dialects): who holds an alias on a host, in
// any letter case; drawing again on collision, a bounded number of times; a chosen alias losing a
// race at the unique index answered like the check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAliasRepository, type AliasRepository } from '../../../src/modules/aliases/alias.repository.js'
import { ALIAS_RESERVED, ALIAS_TAKEN, createAliasService, GENERATION_ATTEMPTS } from '../../../src/modules/aliases/alias.service.js'
import type { DB } from '../../../src/db/database.js'
import { createAccount, createTestApp, type TestContext } from '../../helpers/test-app.js'
import { insertBioPage, insertLink, uniqueAlias } from './alias-fixtures.js'

const BRANDED = 'go.brand.test'

describe('alias namespace', () => {
  let context: TestContext
  let db: DB
  let accountId: number
  let repository: AliasRepository

  beforeAll(async () => {
    context = await createTestApp()
    db = context.database.db
    accountId = (await createAccount(context)).id
    repository = createAliasRepository(db)
  })
  afterAll(() => context.close())

  /** A service drawing `draws` in turn, recording the length asked for each draw. */
  function serviceDrawing(draws: string[], over: AliasRepository = repository) {
    const lengths: number[] = []
    const queue = [...draws]
    const service = createAliasService(over, {
      drawAlias: (length) => {
        lengths.push(length)
        const next = queue.shift()
        if (next === undefined) throw new Error('the test gave no more draws')
        return next
      },
    })
    return { service, lengths }
  }

  /** A repository that sees nothing taken: the write meets the unique index, as a racing request would. */
  const blind: AliasRepository = { isAliasTaken: async () => false }

  describe('isAliasTaken', () => {
    it('finds a link on its own host only, in any letter case', async () => {
      const alias = uniqueAlias('Link')
      await insertLink(db, accountId, alias)
      for (const spelling of [alias, alias.toLowerCase(), alias.toUpperCase()]) expect(await repository.isAliasTaken('', spelling)).toBe(true)
      expect(await repository.isAliasTaken(BRANDED, alias)).toBe(false)
      await insertLink(db, accountId, alias, { host: BRANDED })
      expect(await repository.isAliasTaken(BRANDED, alias.toLowerCase())).toBe(true)
    })

    it('finds a bio page on the main host only, in any letter case', async () => {
      const alias = uniqueAlias('Bio')
      await insertBioPage(db, accountId, alias)
      expect(await repository.isAliasTaken('', alias.toUpperCase())).toBe(true)
      expect(await repository.isAliasTaken(BRANDED, alias)).toBe(false)
    })

    it('leaves out the record that holds the alias, and only that record', async () => {
      const linkAlias = uniqueAlias('Own-link')
      const linkId = await insertLink(db, accountId, linkAlias)
      expect(await repository.isAliasTaken('', linkAlias.toLowerCase(), { kind: 'link', id: linkId })).toBe(false)
      // Ids repeat across tables: a bio page with the link's id is another record.
      expect(await repository.isAliasTaken('', linkAlias, { kind: 'bio', id: linkId })).toBe(true)
      const bioAlias = uniqueAlias('Own-bio')
      const bioId = await insertBioPage(db, accountId, bioAlias)
      expect(await repository.isAliasTaken('', bioAlias.toUpperCase(), { kind: 'bio', id: bioId })).toBe(false)
      expect(await repository.isAliasTaken('', bioAlias, { kind: 'link', id: bioId })).toBe(true)
    })
  })

  describe('generated aliases', () => {
    it('skips reserved words, link and bio aliases in any case, one character longer each draw', async () => {
      const linkAlias = uniqueAlias('Drawn-link')
      await insertLink(db, accountId, linkAlias)
      const bioAlias = uniqueAlias('Drawn-bio')
      await insertBioPage(db, accountId, bioAlias)
      const fresh = uniqueAlias('fresh')
      const written: string[] = []
      const { service, lengths } = serviceDrawing(['avatar', linkAlias.toUpperCase(), bioAlias.toLowerCase(), fresh])
      const result = await service.writeWithGeneratedAlias({ use: 'link', host: '' }, async (alias) => {
        written.push(alias)
        return `stored ${alias}`
      })
      expect(result).toBe(`stored ${fresh}`)
      expect(written).toEqual([fresh])
      expect(lengths).toEqual([6, 7, 8, 9])
    })

    it('lets a link on a branded domain take a bio page’s alias, but not a bio page a main-host link’s', async () => {
      const bioAlias = uniqueAlias('bio-elsewhere')
      await insertBioPage(db, accountId, bioAlias)
      const onBranded = serviceDrawing([bioAlias])
      expect(await onBranded.service.writeWithGeneratedAlias({ use: 'link', host: BRANDED }, async (alias) => alias)).toBe(bioAlias)

      const linkAlias = uniqueAlias('link-main')
      await insertLink(db, accountId, linkAlias)
      const fresh = uniqueAlias('bio-fresh')
      const forBio = serviceDrawing([linkAlias, fresh])
      expect(await forBio.service.writeWithGeneratedAlias({ use: 'bio' }, async (alias) => alias)).toBe(fresh)
    })

    it('draws again when the write meets the unique index, and passes any other failure on', async () => {
      const taken = uniqueAlias('raced')
      await insertLink(db, accountId, taken)
      const fresh = uniqueAlias('after-race')
      const { service, lengths } = serviceDrawing([taken, fresh], blind)
      const id = await service.writeWithGeneratedAlias({ use: 'link', host: '' }, (alias) => insertLink(db, accountId, alias))
      expect(lengths).toEqual([6, 7])
      const stored = await db.selectFrom('links').select('alias').where('id', '=', id).executeTakeFirstOrThrow()
      expect(stored.alias).toBe(fresh)

      const failing = serviceDrawing([uniqueAlias('broken')], blind)
      const failure = new Error('disk full')
      await expect(failing.service.writeWithGeneratedAlias({ use: 'link', host: '' }, async () => Promise.reject(failure))).rejects.toBe(failure)
      expect(failing.lengths).toEqual([6])
    })

    it(`gives up with aliases_exhausted after ${GENERATION_ATTEMPTS} taken draws, writing nothing`, async () => {
      const taken = uniqueAlias('always')
      await insertLink(db, accountId, taken)
      const { service, lengths } = serviceDrawing(Array(10).fill(taken))
      let writes = 0
      const attempt = service.writeWithGeneratedAlias({ use: 'bio' }, async () => (writes += 1))
      await expect(attempt).rejects.toMatchObject({ name: 'ConflictError', code: 'aliases_exhausted' })
      expect(lengths).toEqual([6, 7, 8, 9, 10])
      expect(writes).toBe(0)
    })

    it('draws QR aliases from 8 characters, with the qr_codes unique index as the only check', async () => {
      const linkAlias = uniqueAlias('not-a-qr')
      await insertLink(db, accountId, linkAlias)
      const qr = serviceDrawing([linkAlias])
      expect(await qr.service.writeWithGeneratedAlias({ use: 'qr' }, async (alias) => alias)).toBe(linkAlias)
      expect(qr.lengths).toEqual([8])

      const collisions = serviceDrawing(Array(GENERATION_ATTEMPTS).fill('x'))
      const violation = Object.assign(new Error('unique'), { code: '23505' })
      await expect(collisions.service.writeWithGeneratedAlias({ use: 'qr' }, async () => Promise.reject(violation))).rejects.toMatchObject({ code: 'aliases_exhausted' })
      expect(collisions.lengths).toEqual([8, 9, 10, 11, 12])
    })
  })

  describe('chosen aliases', () => {
    it('refuses reserved words and taken aliases before writing', async () => {
      const taken = uniqueAlias('Chosen')
      await insertLink(db, accountId, taken)
      const { service } = serviceDrawing([])
      let writes = 0
      const write = async () => (writes += 1)
      await expect(service.writeWithChosenAlias('', 'Docs', undefined, write)).rejects.toMatchObject({ code: 'validation_failed', message: ALIAS_RESERVED })
      await expect(service.writeWithChosenAlias('', taken.toLowerCase(), undefined, write)).rejects.toMatchObject({ code: 'duplicate', message: ALIAS_TAKEN })
      expect(writes).toBe(0)
      expect(await service.writeWithChosenAlias(BRANDED, taken, undefined, write)).toBe(1)
    })

    it('lets a record change the case of its own alias', async () => {
      const alias = uniqueAlias('Recased')
      const id = await insertBioPage(db, accountId, alias)
      const { service } = serviceDrawing([])
      expect(await service.writeWithChosenAlias('', alias.toUpperCase(), { kind: 'bio', id }, async () => 'renamed')).toBe('renamed')
    })

    it('answers "taken" when the alias loses the race at the unique index, in any letter case', async () => {
      const { service } = serviceDrawing([], blind)
      const linkAlias = uniqueAlias('Lost-race')
      await insertLink(db, accountId, linkAlias)
      await expect(service.writeWithChosenAlias('', linkAlias.toLowerCase(), undefined, () => insertLink(db, accountId, linkAlias.toLowerCase()))).rejects.toMatchObject({ code: 'duplicate', message: ALIAS_TAKEN })
      const bioAlias = uniqueAlias('Lost-bio-race')
      await insertBioPage(db, accountId, bioAlias)
      await expect(service.writeWithChosenAlias('', bioAlias.toUpperCase(), undefined, () => insertBioPage(db, accountId, bioAlias.toUpperCase()))).rejects.toMatchObject({ code: 'duplicate', message: ALIAS_TAKEN })
    })
  })
})
