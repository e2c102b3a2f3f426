// The bio editor's rules: moving blocks, the client checks that mirror the server, the bodies sent.
import { describe, expect, it } from 'vitest'
import { emptyBioDraft, moveAnnouncement, moveBlock, newBlock, toCreateBody, toUpdateBody, validateBioDraft } from './bio-form'

describe('moveBlock', () => {
  const list = ['a', 'b', 'c', 'd']
  it('moves a block up, down, to an end, and clamps past the ends', () => {
    expect(moveBlock(list, 2, 1)).toEqual(['a', 'c', 'b', 'd'])
    expect(moveBlock(list, 0, 1)).toEqual(['b', 'a', 'c', 'd'])
    expect(moveBlock(list, 3, 0)).toEqual(['d', 'a', 'b', 'c'])
    expect(moveBlock(list, 0, -1)).toEqual(list)
    expect(moveBlock(list, 3, 9)).toEqual(list)
    expect(moveBlock(list, 7, 0)).toEqual(list)
  })
  it('never changes the list it was given', () => {
    moveBlock(list, 0, 3)
    expect(list).toEqual(['a', 'b', 'c', 'd'])
  })
})

describe('validateBioDraft', () => {
  it('accepts a complete draft', () => {
    const draft = { ...emptyBioDraft(), name: 'Jane', alias: 'jane_doe-1', avatar: 'https://cdn.example.com/j.png', blocks: [newBlock('Shop', 'https://shop.example.com')] }
    expect(validateBioDraft(draft)).toEqual({})
  })
  it('names each field the server would refuse, blocks by position', () => {
    const draft = {
      name: ' J ',
      tags: [],
      alias: 'no spaces',
      description: 'x'.repeat(501),
      avatar: 'ftp://example.com/a.png',
      blocks: [newBlock('Fine', 'https://ok.example.com'), newBlock('   ', 'javascript:alert(1)'), newBlock('Half', 'https://')],
    }
    expect(Object.keys(validateBioDraft(draft)).sort()).toEqual(['alias', 'avatar', 'blocks.1.title', 'blocks.1.url', 'blocks.2.url', 'description', 'name'])
  })
  it('refuses more than 100 blocks', () => {
    const blocks = Array.from({ length: 101 }, () => newBlock('a', 'https://a.example.com'))
    expect(validateBioDraft({ ...emptyBioDraft(), name: 'Many', blocks }).blocks).toBe('A page holds at most 100 blocks.')
  })
})

describe('request bodies', () => {
  const draft = { name: ' Jane ', alias: '', description: ' Hi ', avatar: '', blocks: [newBlock(' Shop ', ' https://shop.example.com ')], tags: [] }
  it('create leaves out an empty alias and avatar', () => {
    expect(toCreateBody(draft)).toEqual({ name: 'Jane', description: 'Hi', blocks: [{ title: 'Shop', url: 'https://shop.example.com' }] })
  })
  it('update sends an empty avatar, which removes it', () => {
    expect(toUpdateBody({ ...draft, alias: 'jane' })).toEqual({ name: 'Jane', alias: 'jane', description: 'Hi', avatar: '', blocks: [{ title: 'Shop', url: 'https://shop.example.com' }], tags: [] })
  })
})

it('announces a move with the block title and its new position', () => {
  expect(moveAnnouncement({ title: 'Shop' }, 0, 3)).toBe('Moved "Shop" to position 1 of 3.')
  expect(moveAnnouncement({ title: ' ' }, 2, 3)).toBe('Moved block 3 to position 3 of 3.')
})
