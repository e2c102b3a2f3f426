import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../helpers/test-app.js'
import { nowTimestamp } from '../../../src/core/time.js'

const URL_OK = 'https://valid.example'
const many = (count: number, make: (index: number) => unknown) => Array.from({ length: count }, (_, index) => make(index))
const yesterday = () => nowTimestamp(new Date(Date.now() - 24 * 3600 * 1000))

// [body, field named in the message, optional exact rule text]
const BAD_CREATE_BODIES: [Record<string, unknown>, string, string?][] = [
  [{}, 'url', 'The field "url" is required.'],
  [{ url: 42 }, 'url'],
  [{ url: 'javascript:alert(1)' }, 'url', 'The field "url" must be an http or https URL.'],
  [{ url: 'data:text/html,<script>alert(1)</script>' }, 'url'],
  [{ url: 'ftp://files.example/a' }, 'url'],
  [{ url: 'example.com' }, 'url'],
  [{ url: 'https://' }, 'url'],
  [{ url: 'http://exa mple.com' }, 'url'],
  [{ url: `https://long.example/${'a'.repeat(2048)}` }, 'url'],
  [{ url: 'http://[::1' }, 'url'],
  [{ url: URL_OK, custom: 'ab' }, 'custom', 'The field "custom" must be 3 to 64 characters of letters, digits, _ and -.'],
  [{ url: URL_OK, custom: 'x'.repeat(65) }, 'custom'],
  [{ url: URL_OK, custom: 'has space' }, 'custom'],
  [{ url: URL_OK, custom: 'dot.ted' }, 'custom'],
  [{ url: URL_OK, custom: 123 }, 'custom'],
  [{ url: URL_OK, domain: 0 }, 'domain'],
  [{ url: URL_OK, domain: true }, 'domain'],
  [{ url: URL_OK, domain: 'go.example.com' }, 'domain', 'The field "domain" must start with http:// or https://.'],
  [{ url: URL_OK, domain: 'https://go.example.com/path' }, 'domain'],
  [{ url: URL_OK, password: 'p'.repeat(129) }, 'password', 'The field "password" must be 1 to 128 characters.'],
  [{ url: URL_OK, password: 1234 }, 'password'],
  [{ url: URL_OK, expiry: 'tomorrow' }, 'expiry'],
  [{ url: URL_OK, expiry: '2099-02-30' }, 'expiry'],
  [{ url: URL_OK, expiry: '2099-01-01T00:00:00Z' }, 'expiry'],
  [{ url: URL_OK, expiry: '2099-01-01 24:00:00' }, 'expiry'],
  [{ url: URL_OK, expiry: '2001-01-01' }, 'expiry', 'The field "expiry" must be in the future.'],
  [{ url: URL_OK, type: 'redirect' }, 'type', 'The field "type" must be direct, frame, splash, a splash page id or overlay-<id>.'],
  [{ url: URL_OK, type: 'overlay-' }, 'type'],
  [{ url: URL_OK, type: 'overlay-x' }, 'type'],
  [{ url: URL_OK, type: 'DIRECT' }, 'type'],
  [{ url: URL_OK, type: 0 }, 'type'],
  [{ url: URL_OK, type: -3 }, 'type'],
  [{ url: URL_OK, type: 1.5 }, 'type'],
  [{ url: URL_OK, metatitle: 't'.repeat(201) }, 'metatitle'],
  [{ url: URL_OK, metatitle: 5 }, 'metatitle'],
  [{ url: URL_OK, metadescription: 'd'.repeat(501) }, 'metadescription'],
  [{ url: URL_OK, pixels: 'all' }, 'pixels'],
  [{ url: URL_OK, pixels: [0] }, 'pixels.0'],
  [{ url: URL_OK, pixels: ['1'] }, 'pixels.0'],
  [{ url: URL_OK, pixels: many(51, (index) => index + 1) }, 'pixels'],
  [{ url: URL_OK, campaign: 0 }, 'campaign'],
  [{ url: URL_OK, campaign: '5' }, 'campaign'],
  [{ url: URL_OK, channel: -1 }, 'channel'],
  [{ url: URL_OK, channel: 'x' }, 'channel'],
  [{ url: URL_OK, geotarget: { location: 'US', link: URL_OK } }, 'geotarget'],
  [{ url: URL_OK, geotarget: [{ location: 'USA', link: URL_OK }] }, 'geotarget.0.location'],
  [{ url: URL_OK, geotarget: [{ location: 'QQ', link: URL_OK }] }, 'geotarget.0.location', 'The field "geotarget.0.location" must be a two-letter ISO 3166-1 country code.'],
  [{ url: URL_OK, geotarget: [{ location: 'US' }] }, 'geotarget.0.link'],
  [{ url: URL_OK, geotarget: [{ location: 'US', link: 'javascript:alert(1)' }] }, 'geotarget.0.link'],
  [{ url: URL_OK, geotarget: [{ location: 'US', link: URL_OK }, { location: 'us', link: URL_OK }] }, 'geotarget', 'The field "geotarget" lists the location "US" twice.'],
  [{ url: URL_OK, geotarget: many(51, () => ({ location: 'US', link: URL_OK })) }, 'geotarget'],
  [{ url: URL_OK, devicetarget: [{ device: 'phone', link: URL_OK }] }, 'devicetarget.0.device'],
  [{ url: URL_OK, devicetarget: [{ device: 'iphone', link: 'ftp://x.example' }] }, 'devicetarget.0.link'],
  [{ url: URL_OK, devicetarget: [{ device: 'ipad', link: URL_OK }, { device: 'ipad', link: URL_OK }] }, 'devicetarget'],
  [{ url: URL_OK, devicetarget: many(51, () => ({ device: 'ipad', link: URL_OK })) }, 'devicetarget'],
  [{ url: URL_OK, languagetarget: [{ language: 'eng', link: URL_OK }] }, 'languagetarget.0.language'],
  [{ url: URL_OK, languagetarget: [{ language: 'xx', link: URL_OK }] }, 'languagetarget.0.language'],
  [{ url: URL_OK, languagetarget: [{ language: 'en', link: 'nope' }] }, 'languagetarget.0.link'],
  [{ url: URL_OK, languagetarget: [{ language: 'en', link: URL_OK }, { language: 'EN', link: URL_OK }] }, 'languagetarget'],
]

const BAD_UPDATE_BODIES: [Record<string, unknown>, string][] = [
  [{ url: '' }, 'url'],
  [{ url: 'javascript:alert(1)' }, 'url'],
  [{ custom: '' }, 'custom'],
  [{ custom: 'no way' }, 'custom'],
  [{ domain: 'go.example.com' }, 'domain'],
  [{ domain: -1 }, 'domain'],
  [{ password: 'p'.repeat(129) }, 'password'],
  [{ password: 7 }, 'password'],
  [{ expiry: '2001-01-01 00:00:00' }, 'expiry'],
  [{ expiry: 'soon' }, 'expiry'],
  [{ type: 'popup' }, 'type'],
  [{ type: '' }, 'type'],
  [{ metatitle: 't'.repeat(201) }, 'metatitle'],
  [{ metadescription: 'd'.repeat(501) }, 'metadescription'],
  [{ pixels: '' }, 'pixels'],
  [{ pixels: [-1] }, 'pixels.0'],
  [{ campaign: -1 }, 'campaign'],
  [{ campaign: '' }, 'campaign'],
  [{ channel: 0 }, 'channel'],
  [{ channel: '' }, 'channel'],
  [{ geotarget: ' ' }, 'geotarget'],
  [{ geotarget: [{ location: 'ZZ', link: URL_OK }] }, 'geotarget.0.location'],
  [{ devicetarget: [{ device: 'watch', link: URL_OK }] }, 'devicetarget.0.device'],
  [{ languagetarget: [{ language: 'zz', link: URL_OK }] }, 'languagetarget.0.language'],
]

// Values the schemas let through and the field reader refuses (link-fields.ts), or records the
// account does not have: the one reader of creates and updates answers both alike.
const REFUSED_BY_THE_READER: [Record<string, unknown>, number][] = [
  [{ url: 'http://[::1' }, 400],
  [{ expiry: '2001-01-01' }, 400],
  [{ domain: 'go.example.com' }, 400],
  [{ domain: 'https://go.example.com/path' }, 400],
  [{ domain: 2147483647 }, 404],
  [{ type: 2147483647 }, 404],
  [{ type: 'overlay-2147483647' }, 404],
  [{ pixels: [2147483647] }, 404],
  [{ campaign: 2147483647 }, 404],
  [{ channel: 2147483647 }, 404],
  [{ geotarget: [{ location: 'QQ', link: URL_OK }] }, 400],
  [{ geotarget: [{ location: 'US', link: URL_OK }, { location: 'us', link: URL_OK }] }, 400],
  [{ devicetarget: [{ device: 'ipad', link: URL_OK }, { device: 'ipad', link: URL_OK }] }, 400],
  [{ languagetarget: [{ language: 'xx', link: URL_OK }] }, 400],
  [{ variants: [{ url: 'http://[::1', weight: 1 }, { url: URL_OK, weight: 1 }] }, 400],
  [{ expiredurl: 'http://[::1' }, 400],
  [{ ios: 'http://[::1' }, 400],
  [{ brokenurl: 'http://[::1' }, 400],
]

describe('short link validation', () => {
  const { api } = useTestApp()
  let linkId: number

  beforeAll(async () => {
    linkId = (await api('POST', '/api/url/add', { url: URL_OK, custom: 'validation-target' })).data.id
  })

  it.each(BAD_CREATE_BODIES)('refuses to create with %j: 400 naming %s', async (body, field, message) => {
    const response = await api('POST', '/api/url/add', body)
    expect(response.statusCode).toBe(400)
    expect(response.data).toEqual({ error: 1, message: expect.any(String), code: 'validation_failed', field })
    expect(response.data.message).toContain(`"${field}"`)
    if (message) expect(response.data.message).toBe(message)
  })

  it.each(BAD_UPDATE_BODIES)('refuses to update with %j: 400 naming %s', async (body, field) => {
    const response = await api('PUT', `/api/url/${linkId}/update`, body)
    expect(response.statusCode).toBe(400)
    expect(response.data.code).toBe('validation_failed')
    expect(response.data.message).toContain(`"${field}"`)
  })

  it.each(REFUSED_BY_THE_READER)('refuses %j alike on create and on update (%i)', async (fields, status) => {
    const created = await api('POST', '/api/url/add', { url: URL_OK, ...fields })
    const updated = await api('PUT', `/api/url/${linkId}/update`, fields)
    expect(created.statusCode).toBe(status)
    expect(updated.statusCode).toBe(status)
    expect(updated.data).toEqual(created.data)
  })

  it('refuses an expiry that has just passed', async () => {
    const response = await api('POST', '/api/url/add', { url: URL_OK, expiry: yesterday() })
    expect(response.data.message).toBe('The field "expiry" must be in the future.')
  })

  it('accepts the limits themselves', async () => {
    const response = await api('POST', '/api/url/add', {
      url: `https://long.example/${'a'.repeat(2048 - 'https://long.example/'.length)}`,
      custom: 'y'.repeat(64),
      password: 'p'.repeat(128),
      metatitle: 't'.repeat(200),
      metadescription: 'd'.repeat(500),
      expiry: '2999-12-31',
      geotarget: ['US', 'CA', 'GB', 'DE', 'FR', 'XK'].map((location) => ({ location, link: URL_OK })),
      devicetarget: ['iphone', 'ipad', 'android', 'windows', 'macos', 'linux', 'mobile', 'tablet', 'desktop'].map((device) => ({ device, link: URL_OK })),
      languagetarget: ['en', 'fr', 'zh'].map((language) => ({ language, link: URL_OK })),
    })
    expect(response.statusCode).toBe(201)
    const read = await api('GET', `/api/url/${response.data.id}`)
    expect(read.data.details.expiry).toBe('2999-12-31 00:00:00')
  })

  it('refuses a body that is not a JSON object', async () => {
    expect((await api('POST', '/api/url/add', '[1,2]')).statusCode).toBe(400)
    expect((await api('POST', '/api/url/add', '{"url":')).statusCode).toBe(400)
  })
})
