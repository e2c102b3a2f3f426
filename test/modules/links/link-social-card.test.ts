// Social cards (issue 23): an image per link uploaded as multipart (PNG, JPEG or WebP, at most
// 1 MB), stored as a 1200×630 JPEG, served at a public address, and shown with the link's meta
// title and description to link-preview fetchers, while people are redirected as before; on both
// databases.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { useTestApp, withJsonData } from '../../helpers/test-app.js'
import { visit } from '../../public/redirect-test-support.js'

const BOUNDARY = '----linkwell-card-boundary'
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'
const TWITTERBOT = 'Twitterbot/1.0'
const LINKEDINBOT = 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)'
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

function multipartBody(file: { field?: string; type?: string; bytes: Buffer }): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="card"\r\nContent-Type: ${file.type ?? 'image/png'}\r\n\r\n`),
    file.bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ])
}

function image(format: 'png' | 'jpeg' | 'webp', width = 800, height = 800): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })[format]().toBuffer()
}

/** Tag `property`'s (or `name`'s) content in the page. */
function tag(page: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(page)?.[1]
}

describe('social cards', () => {
  const { context, owner, other, api } = useTestApp()

  async function upload(id: number, body: Buffer, apiKey = owner.apiKey, contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
    return withJsonData(await context.app.inject({ method: 'POST', url: `/api/url/${id}/card`, headers: { authorization: `Bearer ${apiKey}`, 'content-type': contentType }, payload: body }))
  }

  async function newLink(fields: Record<string, unknown> = {}) {
    const created = await api('POST', '/api/url/add', { url: 'https://example.com/landing', ...fields })
    expect(created.statusCode).toBe(201)
    return { id: created.data.id as number, alias: (created.data.shorturl as string).split('/').pop()! }
  }

  it.each(['png', 'jpeg', 'webp'] as const)('takes a %s, stores it as a 1200×630 JPEG and shows its address in the link', async (format) => {
    const link = await newLink({ metatitle: 'Spring sale' })
    const response = await upload(link.id, multipartBody({ bytes: await image(format, 640, 900), type: 'application/octet-stream' }))
    expect(response.statusCode).toBe(200)
    expect(response.data.card).toMatch(/^https?:\/\/[^/]+\/card\/[A-Za-z0-9_-]{16}\.jpg$/)
    const read = await api('GET', `/api/url/${link.id}`)
    expect(read.data.details.card).toBe(response.data.card)
    const served = await visit(context.app, new URL(response.data.card).pathname)
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/jpeg')
    expect(served.headers['cache-control']).toContain('immutable')
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 })
  })

  it('refuses what is not an image, an image of another type, a file over 1 MB and a missing file, naming the field', async () => {
    const link = await newLink()
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
    const big = Buffer.concat([await image('png', 10, 10), Buffer.alloc(1024 * 1024)])
    const cases = [
      multipartBody({ bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: 'image/svg+xml' }),
      multipartBody({ bytes: gif, type: 'image/gif' }),
      multipartBody({ bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png')]) }),
      multipartBody({ bytes: big }),
      multipartBody({ bytes: await image('png'), field: 'file' }),
    ]
    for (const body of cases) {
      const response = await upload(link.id, body)
      expect(response.statusCode).toBe(400)
      expect(response.data).toMatchObject({ error: 1, code: 'validation_failed', field: 'image' })
    }
    const json = await upload(link.id, Buffer.from('{"image":"x"}'), owner.apiKey, 'application/json')
    expect(json.statusCode).toBe(400)
    expect(json.data).toMatchObject({ error: 1, field: 'image' })
    expect((await api('GET', `/api/url/${link.id}`)).data.details.card).toBeNull()
  })

  it('shows link-preview fetchers the Open Graph and Twitter card tags, and redirects people as before', async () => {
    const link = await newLink({ metatitle: 'Spring sale', metadescription: 'Everything 20 % off "today"', utm: { source: 'social' } })
    const { data } = await upload(link.id, multipartBody({ bytes: await image('jpeg') }))
    for (const agent of [SLACKBOT, TWITTERBOT, LINKEDINBOT]) {
      // Twice: the second visit is answered from the alias cache (the front door), and must not redirect either.
      for (let i = 0; i < 2; i++) {
        const page = await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': agent } })
        expect(page.statusCode).toBe(200)
        expect(page.headers['content-type']).toContain('text/html')
        expect(tag(page.body, 'og:title')).toBe('Spring sale')
        expect(tag(page.body, 'og:description')).toBe('Everything 20 % off &quot;today&quot;')
        expect(tag(page.body, 'og:image')).toBe(data.card)
        expect(tag(page.body, 'og:url')).toMatch(new RegExp(`/${link.alias}$`))
        expect(tag(page.body, 'twitter:card')).toBe('summary_large_image')
        expect(tag(page.body, 'twitter:image')).toBe(data.card)
      }
    }
    for (let i = 0; i < 2; i++) {
      const person = await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': CHROME } })
      expect(person.statusCode).toBe(302)
      expect(person.headers.location).toBe('https://example.com/landing?utm_source=social')
    }
    // Other bots (a script's HTTP client, a monitor, a request without a user agent) follow the redirect, uncounted.
    for (const agent of ['curl/8.5.0', 'python-requests/2.31', 'UptimeRobot/2.0', undefined]) {
      const script = await visit(context.app, `/${link.alias}`, { headers: agent === undefined ? {} : { 'user-agent': agent } })
      expect(script.statusCode, agent).toBe(302)
      expect(script.headers.location).toBe('https://example.com/landing?utm_source=social')
    }
    // Fetchers are not counted as clicks; people are.
    await context.clicks.flush()
    expect((await api('GET', `/api/url/${link.id}`)).data.details.clicks).toBe(2)
  })

  it('keeps redirecting bots at a link with neither card nor meta text; a link with meta text only gets a summary card', async () => {
    const plain = await newLink()
    const bot = await visit(context.app, `/${plain.alias}`, { headers: { 'user-agent': SLACKBOT } })
    expect(bot.statusCode).toBe(302)
    expect(bot.headers.location).toBe('https://example.com/landing')
    const titled = await newLink({ metatitle: 'Only a title' })
    const page = await visit(context.app, `/${titled.alias}`, { headers: { 'user-agent': SLACKBOT } })
    expect(page.statusCode).toBe(200)
    expect(tag(page.body, 'og:title')).toBe('Only a title')
    expect(tag(page.body, 'og:image')).toBeUndefined()
    expect(tag(page.body, 'twitter:card')).toBe('summary')
  })

  it('removes the card: its image is gone and fetchers are redirected again', async () => {
    const link = await newLink()
    const { data } = await upload(link.id, multipartBody({ bytes: await image('png') }))
    expect((await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': SLACKBOT } })).statusCode).toBe(200)
    const removed = await api('DELETE', `/api/url/${link.id}/card`)
    expect(removed.statusCode).toBe(200)
    expect((await api('GET', `/api/url/${link.id}`)).data.details.card).toBeNull()
    expect((await visit(context.app, new URL(data.card).pathname)).statusCode).toBe(404)
    const bot = await visit(context.app, `/${link.alias}`, { headers: { 'user-agent': SLACKBOT } })
    expect(bot.statusCode).toBe(302)
    // Removing again is no error; a new upload gets a new address.
    expect((await api('DELETE', `/api/url/${link.id}/card`)).statusCode).toBe(200)
    const again = await upload(link.id, multipartBody({ bytes: await image('png') }))
    expect(again.data.card).not.toBe(data.card)
  })

  it('answers 404 for another workspace\'s link, and a deleted link takes its card with it', async () => {
    const link = await newLink()
    const theirs = await upload(link.id, multipartBody({ bytes: await image('png') }), other.apiKey)
    expect(theirs.statusCode).toBe(404)
    expect(theirs.data).toMatchObject({ error: 1, code: 'not_found' })
    const otherDelete = await context.app.inject({ method: 'DELETE', url: `/api/url/${link.id}/card`, headers: { authorization: `Bearer ${other.apiKey}` } })
    expect(otherDelete.statusCode).toBe(404)
    const { data } = await upload(link.id, multipartBody({ bytes: await image('png') }))
    expect((await api('DELETE', `/api/url/${link.id}/delete`)).statusCode).toBe(200)
    expect((await visit(context.app, new URL(data.card).pathname)).statusCode).toBe(404)
  })
})
