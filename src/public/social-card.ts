// Social cards (issue 23, ADR 023): what a link-preview fetcher (Slack, X, LinkedIn, Facebook, …:
// the click recorder's bot list) gets at a link with a card or meta text, a small page of Open
// Graph and Twitter card tags, and the card image itself at /card/{token}.jpg. People never see
// the page: the visit service decides it for bots only (modules/visits/visit.service.ts).
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import type { App } from '../http/app-instance.js'
import { CARD_TOKEN_PATTERN, cardImageUrl, CARD_HEIGHT, CARD_WIDTH } from '../modules/links/link-card.js'
import type { LinkCardService } from '../modules/links/link-card.service.js'
import type { Visit } from '../modules/visits/visit.service.js'
import { NotFoundError } from '../core/errors.js'
import { html, sendPage } from './html.js'

/** The short address the fetcher asked for: on the main host the service's URL, else the branded domain's. */
function shortAddressOf(reply: FastifyReply, alias: string, publicUrl: string): string {
  const base = new URL(publicUrl)
  const host = reply.request.headers.host
  const origin = !host || host === base.host ? base.origin : `${reply.request.protocol}://${host}`
  return `${origin}/${alias}`
}

/** The page of tags a preview fetcher reads (nothing is counted, nothing redirects). */
export function sendSocialCardPage(reply: FastifyReply, visit: Extract<Visit, { kind: 'card' }>, publicUrl: string): FastifyReply {
  const { link, card } = visit
  const url = shortAddressOf(reply, link.alias, publicUrl)
  const title = link.title ?? url
  const image = card.token === null ? null : cardImageUrl(publicUrl, card.token)
  const head = html`
<meta property="og:type" content="website"><meta property="og:url" content="${url}"><meta property="og:title" content="${title}">
${link.description === null ? '' : html`<meta property="og:description" content="${link.description}"><meta name="description" content="${link.description}">`}
${image === null ? '' : html`<meta property="og:image" content="${image}"><meta property="og:image:type" content="image/jpeg"><meta property="og:image:width" content="${CARD_WIDTH}"><meta property="og:image:height" content="${CARD_HEIGHT}">`}
<meta name="twitter:card" content="${image === null ? 'summary' : 'summary_large_image'}"><meta name="twitter:title" content="${title}">
${link.description === null ? '' : html`<meta name="twitter:description" content="${link.description}">`}
${image === null ? '' : html`<meta name="twitter:image" content="${image}">`}
<link rel="canonical" href="${url}">`
  return sendPage(reply, { title, head, body: html`<h1>${title}</h1>${link.description === null ? '' : html`<p>${link.description}</p>`}<p><a class="button" href="${url}">Open the link</a></p>` })
}

const CardParams = Type.Object({ token: Type.String({ pattern: CARD_TOKEN_PATTERN }) })

/** GET /card/{token}.jpg: a link's social card image, cached for good (a new upload gets a new token). */
export function registerSocialCardRoutes(app: App, { cards }: { cards: Pick<LinkCardService, 'cardImage'> }): void {
  app.get<{ Params: { token: string } }>('/card/:token.jpg', {
    schema: { tags: ['public'], summary: 'A link\'s social card image (1200×630 JPEG)', security: [], params: CardParams },
  }, async (request, reply) => {
    const image = await cards.cardImage(request.params.token)
    if (!image) throw NotFoundError.of('Social card')
    return reply
      .type('image/jpeg')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(image)
  })
}
