// The alias namespace against a real database (both dialects): who holds an alias on a host, in
// any letter case; drawing again on collision, a bounded number of times; a chosen alias losing a
// race at the unique index answered like the check.
import { beforeAll, describe, expect, it } from 'vitest'
import { createAliasRepository, type AliasRepository } from '../../../src/modules/aliases/alias.repository.js'
import { ALIAS_RESERVED, ALIAS_TAKEN, createAliasService, GENERATION_ATTEMPTS } from '../../../src/modules/aliases/alias.service.js'
import type { DB } from '../../../src/db/database.js'
import { useTestApp } from '../../helpers/test-app.js'
import { insertBioPageRow, insertLinkRow, uniqueAlias } from '../../helpers/factories.js'

const BRANDED = 'go.brand.test'

describe('alias namespace', () => {
  const { context, owner } = useTestApp()
  let db: DB
  let accountId: number
  let repository: AliasRepository

  beforeAll(() => {
    db = context.database.db
    accountId = owner.id
    repository = createAliasRepository(db)
  })

  /** A service drawing `draws` in turn, recording the length asked for each draw. */
  function serviceDrawing(draws: string[], over: AliasRepository = repository) {
    const lengths: number[] = []
    const queue = [...draws]
    const service = createAliasService({
      namespace: over,
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
  const blind: AliasRepository = { isAliasTaken: async () => false, takenAmong: async () => new Set() }

  describe('isAliasTaken', () => {
    it('finds a link on its own host only, in any letter case', async () => {
      const alias = uniqueAlias('Link')
      await insertLinkRow(db, accountId, { alias })
      for (const spelling of [alias, alias.toLowerCase(), alias.toUpperCase()]) expect(await repository.isAliasTaken('', spelling)).toBe(true)
      expect(await repository.isAliasTaken(BRANDED, alias)).toBe(false)
      await insertLinkRow(db, accountId, { alias, host: BRANDED })
      expect(await repository.isAliasTaken(BRANDED, alias.toLowerCase())).toBe(true)
    })

    it('finds a bio page on the main host only, in any letter case', async () => {
      const alias = uniqueAlias('Bio')
      await insertBioPageRow(db, accountId, { alias })
      expect(await repository.isAliasTaken('', alias.toUpperCase())).toBe(true)
      expect(await repository.isAliasTaken(BRANDED, alias)).toBe(false)
    })

    it('leaves out the record that holds the alias, and only that record', async () => {
      const linkAlias = uniqueAlias('Own-link')
      const { id: linkId } = await insertLinkRow(db, accountId, { alias: linkAlias })
      expect(await repository.isAliasTaken('', linkAlias.toLowerCase(), { kind: 'link', id: linkId })).toBe(false)
      // Ids repeat across tables: a bio page with the link's id is another record.
      expect(await repository.isAliasTaken('', linkAlias, { kind: 'bio', id: linkId })).toBe(true)
      const bioAlias = uniqueAlias('Own-bio')
      const { id: bioId } = await insertBioPageRow(db, accountId, { alias: bioAlias })
      expect(await repository.isAliasTaken('', bioAlias.toUpperCase(), { kind: 'bio', id: bioId })).toBe(false)
      expect(await repository.isAliasTaken('', bioAlias, { kind: 'link', id: bioId })).toBe(true)
    })
  })

  describe('generated aliases', () => {
    it('skips reserved words, link and bio aliases in any case, one character longer each draw', async () => {
      const linkAlias = uniqueAlias('Drawn-link')
      await insertLinkRow(db, accountId, { alias: linkAlias })
      const bioAlias = uniqueAlias('Drawn-bio')
      await insertBioPageRow(db, accountId, { alias: bioAlias })
      const fresh = uniqueAlias('fresh')
      const written: string[] = []
      const { service, lengths } = serviceDrawing(['metrics', linkAlias.toUpperCase(), bioAlias.toLowerCase(), fresh])
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
      await insertBioPageRow(db, accountId, { alias: bioAlias })
      const onBranded = serviceDrawing([bioAlias])
      expect(await onBranded.service.writeWithGeneratedAlias({ use: 'link', host: BRANDED }, async (alias) => alias)).toBe(bioAlias)

      const linkAlias = uniqueAlias('link-main')
      await insertLinkRow(db, accountId, { alias: linkAlias })
      const fresh = uniqueAlias('bio-fresh')
      const forBio = serviceDrawing([linkAlias, fresh])
      expect(await forBio.service.writeWithGeneratedAlias({ use: 'bio' }, async (alias) => alias)).toBe(fresh)
    })

    it('draws again when the write meets the unique index, and passes any other failure on', async () => {
      const taken = uniqueAlias('raced')
      await insertLinkRow(db, accountId, { alias: taken })
      const fresh = uniqueAlias('after-race')
      const { service, lengths } = serviceDrawing([taken, fresh], blind)
      const { id } = await service.writeWithGeneratedAlias({ use: 'link', host: '' }, (alias) => insertLinkRow(db, accountId, { alias }))
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
      await insertLinkRow(db, accountId, { alias: taken })
      const { service, lengths } = serviceDrawing(Array(10).fill(taken))
      let writes = 0
      const attempt = service.writeWithGeneratedAlias({ use: 'bio' }, async () => (writes += 1))
      await expect(attempt).rejects.toMatchObject({ name: 'ConflictError', code: 'aliases_exhausted' })
      expect(lengths).toEqual([6, 7, 8, 9, 10])
      expect(writes).toBe(0)
    })

    it('draws QR aliases from 8 characters, with the qr_codes unique index as the only check', async () => {
      const linkAlias = uniqueAlias('not-a-qr')
      await insertLinkRow(db, accountId, { alias: linkAlias })
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
      await insertLinkRow(db, accountId, { alias: taken })
      const { service } = serviceDrawing([])
      let writes = 0
      const write = async () => (writes += 1)
      await expect(service.writeWithChosenAlias({ host: '', alias: 'Healthz', field: 'custom' }, write)).rejects.toMatchObject({ code: 'validation_failed', message: ALIAS_RESERVED, field: 'custom' })
      await expect(service.writeWithChosenAlias({ host: '', alias: taken.toLowerCase(), field: 'custom' }, write)).rejects.toMatchObject({ code: 'duplicate', message: ALIAS_TAKEN, field: 'custom' })
      expect(writes).toBe(0)
      expect(await service.writeWithChosenAlias({ host: BRANDED, alias: taken, field: 'custom' }, write)).toBe(1)
    })

    it('lets a record change the case of its own alias', async () => {
      const alias = uniqueAlias('Recased')
      const { id } = await insertBioPageRow(db, accountId, { alias })
      const { service } = serviceDrawing([])
      expect(await service.writeWithChosenAlias({ host: '', alias: alias.toUpperCase(), field: 'custom', holder: { kind: 'bio', id } }, async () => 'renamed')).toBe('renamed')
    })

    it('answers "taken" when the alias loses the race at the unique index, in any letter case', async () => {
      const { service } = serviceDrawing([], blind)
      const linkAlias = uniqueAlias('Lost-race')
      await insertLinkRow(db, accountId, { alias: linkAlias })
      await expect(service.writeWithChosenAlias({ host: '', alias: linkAlias.toLowerCase(), field: 'custom' }, () => insertLinkRow(db, accountId, { alias: linkAlias.toLowerCase() }))).rejects.toMatchObject({ code: 'duplicate', message: ALIAS_TAKEN })
      const bioAlias = uniqueAlias('Lost-bio-race')
      await insertBioPageRow(db, accountId, { alias: bioAlias })
      await expect(service.writeWithChosenAlias({ host: '', alias: bioAlias.toUpperCase(), field: 'custom' }, () => insertBioPageRow(db, accountId, { alias: bioAlias.toUpperCase() }))).rejects.toMatchObject({ code: 'duplicate', message: ALIAS_TAKEN })
    })
  })
})
