import { describe, expect, it } from 'vitest'
import { emptySplashForm, toSplashBody, toSplashPreviewBody, validateSplashForm } from './splash-form'

const valid = { ...emptySplashForm, name: 'Launch', title: 'Our app is out', counter: '8' }

describe('splash page form', () => {
  it('accepts a complete form and sends trimmed values', () => {
    const values = { ...valid, name: ' Launch ', image: ' https://cdn.example/a.png ', link: 'http://shop.example' }
    expect(validateSplashForm(values)).toEqual({})
    expect(toSplashBody(values)).toEqual({ name: 'Launch', title: 'Our app is out', description: '', image: 'https://cdn.example/a.png', link: 'http://shop.example', counter: 8 })
  })

  it('mirrors the server rules', () => {
    expect(validateSplashForm({ ...valid, name: 'x', title: '  ', image: 'javascript:alert(1)', link: 'shop.example', counter: '61', description: 'd'.repeat(1001) })).toEqual({
      name: 'Must be 2 to 100 characters.',
      title: 'Must be 1 to 100 characters.',
      image: 'Must be an http or https URL, or empty.',
      link: 'Must be an http or https URL, or empty.',
      counter: 'Must be a whole number of seconds from 0 to 60.',
      description: 'Must be at most 1000 characters.',
    })
    expect(validateSplashForm({ ...valid, counter: '2.5' }).counter).toBeDefined()
    expect(validateSplashForm({ ...valid, counter: '0' }).counter).toBeUndefined()
  })

  it('previews an unfinished form with stand-ins instead of failing', () => {
    expect(toSplashPreviewBody({ ...emptySplashForm, counter: '', image: 'not a url', description: 'Soon' })).toEqual({
      name: 'Preview', title: 'Your title', description: 'Soon', image: '', link: '', counter: 5,
    })
  })
})
