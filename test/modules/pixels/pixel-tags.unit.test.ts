import { describe, expect, it } from 'vitest'
import { isPixelType, normalisePixelTag, PIXEL_TYPES, type PixelType } from '../../../src/modules/pixels/pixel-tags.js'
import { ValidationError } from '../../../src/core/errors.js'

function failure(type: PixelType, tag: string): string {
  try {
    normalisePixelTag(type, tag)
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError)
    return (error as Error).message
  }
  throw new Error(`${type} accepted ${JSON.stringify(tag)}`)
}

describe('pixel tags', () => {
  it('knows exactly the spec’s thirteen pixel types', () => {
    expect([...PIXEL_TYPES].sort()).toEqual(['adrollpixel', 'adwordspixel', 'bing', 'fbpixel', 'gapixel', 'gtmpixel', 'linkedinpixel', 'pinterest', 'quorapixel', 'reddit', 'snapchat', 'tiktok', 'twitterpixel'])
    expect(isPixelType('gtmpixel')).toBe(true)
    expect(isPixelType('myspace')).toBe(false)
  })

  it.each<[PixelType, string, string]>([
    ['gtmpixel', 'GTM-ABC1234', 'GTM-ABC1234'],
    ['gtmpixel', ' gtm-k9x2lm7 ', 'GTM-K9X2LM7'],
    ['gapixel', 'G-ABCDE12345', 'G-ABCDE12345'],
    ['gapixel', 'g-abcde12345', 'G-ABCDE12345'],
    ['gapixel', 'UA-12345678-1', 'UA-12345678-1'],
    ['fbpixel', '123456789012345', '123456789012345'],
    ['fbpixel', '1234567890123456', '1234567890123456'],
    ['adwordspixel', 'AW-123456789', 'AW-123456789'],
    ['adwordspixel', 'aw-123456789/AbC-dEf_123', 'AW-123456789/AbC-dEf_123'],
    ['linkedinpixel', '1234567', '1234567'],
    ['twitterpixel', 'o1a2b', 'o1a2b'],
    ['twitterpixel', 'nuvkm1x2z3', 'nuvkm1x2z3'],
    ['adrollpixel', 'ABCDEFGHIJKLMNOPQRSTUV', 'ABCDEFGHIJKLMNOPQRSTUV'],
    ['quorapixel', '0123456789ABCDEF0123456789abcdef', '0123456789abcdef0123456789abcdef'],
    ['pinterest', '2612345678901', '2612345678901'],
    ['bing', '12345678', '12345678'],
    ['snapchat', '1A2B3C4D-5E6F-7A8B-9C0D-1E2F3A4B5C6D', '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d'],
    ['reddit', 't2_abc123', 't2_abc123'],
    ['reddit', 'A2_XYZ789', 'a2_xyz789'],
    ['tiktok', 'C4ABCDEFGHIJKLMNOPQR', 'C4ABCDEFGHIJKLMNOPQR'],
  ])('%s accepts %j as %j', (type, tag, normalised) => {
    expect(normalisePixelTag(type, tag)).toBe(normalised)
  })

  it.each<[PixelType, string, string]>([
    ['gtmpixel', 'ABC1234', 'a Google Tag Manager container id like GTM-XXXXXXX'],
    ['gtmpixel', 'GTM-AB', 'a Google Tag Manager container id like GTM-XXXXXXX'],
    ['gtmpixel', 'GTM-ABC1234"><script>', 'a Google Tag Manager container id like GTM-XXXXXXX'],
    ['gapixel', 'GTM-ABC1234', 'a Google Analytics measurement id like G-XXXXXXXXXX or a property id like UA-12345678-1'],
    ['gapixel', 'UA-12345678', 'a Google Analytics measurement id like G-XXXXXXXXXX or a property id like UA-12345678-1'],
    ['fbpixel', '123456789', 'a Facebook pixel id of 10 to 20 digits like 123456789012345'],
    ['fbpixel', '12345678901234567890123', 'a Facebook pixel id of 10 to 20 digits like 123456789012345'],
    ['fbpixel', '12345678901234a', 'a Facebook pixel id of 10 to 20 digits like 123456789012345'],
    ['adwordspixel', '123456789', 'a Google Ads conversion id like AW-123456789, optionally followed by /label'],
    ['adwordspixel', 'AW-123456789/', 'a Google Ads conversion id like AW-123456789, optionally followed by /label'],
    ['linkedinpixel', 'li-12345', 'a LinkedIn Insight Tag partner id of 4 to 12 digits like 1234567'],
    ['twitterpixel', 'o1a2', 'an X (Twitter) pixel id of 5 to 10 letters and digits like o1a2b'],
    ['twitterpixel', 'o1a2b-c', 'an X (Twitter) pixel id of 5 to 10 letters and digits like o1a2b'],
    ['adrollpixel', 'SHORT', 'an AdRoll advertiser id of 10 to 32 letters and digits like ABCDEFGHIJKLMNOPQRSTUV'],
    ['quorapixel', '0123456789abcdef0123456789abcde', 'a Quora pixel id of 32 hexadecimal characters'],
    ['quorapixel', '0123456789abcdef0123456789abcdeg', 'a Quora pixel id of 32 hexadecimal characters'],
    ['pinterest', '123456789', 'a Pinterest tag id of 10 to 16 digits like 2612345678901'],
    ['bing', 'UET-1234', 'a Microsoft Advertising (Bing) UET tag id of 4 to 12 digits like 12345678'],
    ['snapchat', '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d', 'a Snapchat pixel id in UUID form like 1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d'],
    ['reddit', 't3_abc123', 'a Reddit pixel id like t2_abc123 or a2_abc123'],
    ['reddit', 't2_', 'a Reddit pixel id like t2_abc123 or a2_abc123'],
    ['tiktok', 'C4ABCDEFGHIJ', 'a TikTok pixel id of 15 to 25 letters and digits like C4ABCDEFGHIJKLMNOPQR'],
    ['tiktok', 'C4ABCDEFGHIJKLMNOP-R', 'a TikTok pixel id of 15 to 25 letters and digits like C4ABCDEFGHIJKLMNOPQR'],
  ])('%s refuses %j naming the expected form', (type, tag, expected) => {
    expect(failure(type, tag)).toBe(`The field "tag" must be ${expected}.`)
  })

  it('refuses a tag with a trailing newline or an empty tag for every provider', () => {
    for (const type of PIXEL_TYPES) {
      expect(failure(type, '')).toMatch(/^The field "tag" must be /)
      expect(failure(type, 'GTM-ABC1234\n<x>')).toMatch(/^The field "tag" must be /)
    }
  })
})
