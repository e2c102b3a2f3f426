import { describe, expect, it } from 'vitest'
import { listPixelProviders, normalisePixelTag } from '../../../src/modules/pixels/pixel-tags.js'

// The published pattern must agree with normalisePixelTag for the dashboard's check to be the server's.
const SAMPLES = [
  '', ' ', 'GTM-ABC1234', 'gtm-abc1234', 'GTM-AB', 'G-ABCDE12345', 'g-abcde12345', 'UA-12345678-1', 'ua-12345678-1',
  '123456789012345', '1234', '12345678', '2612345678901', '123456789012345678901', 'AW-123456789', 'aw-123456789/AbC_d-1',
  'Aw-123456789/label', 'o1a2b', 'O1A2B', 'ABCDEFGHIJKLMNOPQRSTUV', '0123456789abcdef0123456789abcdef',
  '0123456789ABCDEF0123456789ABCDEF', '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d', '1A2B3C4D-5E6F-7A8B-9C0D-1E2F3A4B5C6D',
  't2_abc123', 'T2_ABC123', 'a2_x', 'C4ABCDEFGHIJKLMNOPQR', 'c4abcdefghijklmnopqr', '<script>', 'GTM-ABC1234\n', ' 123456789012345 ',
]

function serverAccepts(type: Parameters<typeof normalisePixelTag>[0], tag: string): boolean {
  try {
    normalisePixelTag(type, tag)
    return true
  } catch {
    return false
  }
}

describe('pixel providers as published', () => {
  it.each(listPixelProviders().map((provider) => [provider.type, provider] as const))('%s: the pattern accepts exactly what the server accepts', (_type, provider) => {
    const pattern = new RegExp(provider.pattern, provider.flags)
    expect(serverAccepts(provider.type, provider.example)).toBe(true)
    for (const sample of SAMPLES) expect(pattern.test(sample.trim()), JSON.stringify(sample)).toBe(serverAccepts(provider.type, sample))
  })
})
