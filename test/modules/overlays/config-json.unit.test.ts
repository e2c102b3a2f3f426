import { describe, expect, it } from 'vitest'
import { mergeConfigFields, parseConfigJson } from '../../../src/modules/overlays/config-json.js'

describe('parseConfigJson', () => {
  it('reads a JSON object', () => {
    expect(parseConfigJson('{"message":"hi","counter":5}')).toEqual({ message: 'hi', counter: 5 })
  })

  it.each(['', 'not json', '[1,2]', 'null', '"text"', '42'])('reads %j as {}', (text) => {
    expect(parseConfigJson(text)).toEqual({})
  })
})

describe('mergeConfigFields', () => {
  const fields = ['title', 'link', 'counter'] as const

  it('replaces given fields, keeps absent ones, removes emptied ones and drops other keys', () => {
    const current = { title: 'Old', link: 'https://old.example', counter: 5, stray: 'x' }
    expect(mergeConfigFields(fields, current, { title: ' New ', link: '', extra: 'y' })).toEqual({ title: 'New', counter: 5 })
  })

  it('treats text of spaces as empty and keeps zero', () => {
    expect(mergeConfigFields(fields, {}, { title: '   ', counter: 0 })).toEqual({ counter: 0 })
  })

  it('never stores values that are neither text nor finite numbers', () => {
    expect(mergeConfigFields(fields, { title: ['a'], counter: Number.NaN }, { link: { href: 'x' } })).toEqual({})
  })
})
