import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { PIXEL_TYPES } from '../../../src/modules/pixels/pixel-tags.js'

interface Provider { type: string; label: string; example: string; expected: string; pattern: string; flags: string }

describe('GET /api/pixels/providers', () => {
  const { api, context } = useTestApp()

  it('answers every provider in the spec’s order with its label, example, rule and pattern', async () => {
    const response = await api('GET', '/api/pixels/providers')
    expect(response.statusCode).toBe(200)
    expect(response.data.error).toBe(0)
    const providers = response.data.providers as Provider[]
    expect(providers.map((provider) => provider.type)).toEqual([...PIXEL_TYPES])
    expect(providers.find((provider) => provider.type === 'gtmpixel')).toEqual({
      type: 'gtmpixel',
      label: 'Google Tag Manager',
      example: 'GTM-K9X2LM7',
      expected: 'a Google Tag Manager container id like GTM-XXXXXXX',
      pattern: '^GTM-[A-Z0-9]{4,10}$',
      flags: 'i',
    })
  })

  it('describes what the create endpoint does: each example is accepted, and a refusal quotes `expected`', async () => {
    const providers = (await api('GET', '/api/pixels/providers')).data.providers as Provider[]
    for (const provider of providers) {
      expect(new RegExp(provider.pattern, provider.flags).test(provider.example)).toBe(true)
      const created = await api('POST', '/api/pixel/add', { type: provider.type, name: provider.label, tag: provider.example })
      expect(created.statusCode, provider.type).toBe(201)
      const refused = await api('POST', '/api/pixel/add', { type: provider.type, name: provider.label, tag: 'not a tag!' })
      expect(refused.statusCode).toBe(400)
      expect(refused.data.message).toBe(`The field "tag" must be ${provider.expected}.`)
    }
  })

  it('requires an API key', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/pixels/providers' })
    expect(response.statusCode).toBe(401)
  })
})
