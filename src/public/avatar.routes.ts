// GET /avatar/{username}.svg: the default avatar every account record points to (no key needed):
// the username's initial on a colour derived from the username. Drawn for any name, from the name
// as asked, without looking the account up: the answer (status, headers, body) is the same for a
// name that exists and one that does not, so the address tells no one which usernames exist.
import { createHash } from 'node:crypto'
import { Type } from 'typebox'
import type { App } from '../http/app-instance.js'

const AvatarParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }) })

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }

/** Escapes text for an XML text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char)
}

/** A stable hue for a username, so the same account always gets the same colour. */
export function avatarHue(username: string): number {
  return createHash('sha256').update(username.toLowerCase(), 'utf8').digest().readUInt16BE(0) % 360
}

/** The avatar image: a 128×128 disc with the first letter of the username. */
export function renderAvatarSvg(username: string): string {
  // First code point, not first UTF-16 unit, so a name starting with an emoji is not cut in half.
  const initial = escapeXml((Array.from(username)[0] ?? '?').toUpperCase())
  const hue = avatarHue(username)
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img">' +
    `<title>${escapeXml(username)}</title>` +
    `<circle cx="64" cy="64" r="64" fill="hsl(${hue}, 55%, 42%)"/>` +
    '<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="60" fill="#ffffff">' +
    `${initial}</text></svg>`
  )
}

export function registerAvatarRoutes(app: App): void {
  app.get('/avatar/:username.svg', {
    schema: { hide: true, params: AvatarParams },
  }, async (request, reply) => {
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      // An SVG opened directly is a document: it may run nothing and load nothing.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('x-content-type-options', 'nosniff')
      .send(renderAvatarSvg(request.params.username))
  })
}
