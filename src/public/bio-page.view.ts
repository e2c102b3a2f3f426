// The public bio page at `{base}/{alias}`: avatar, name, description and the link blocks in
// order. Plain HTML under DEFAULT_CSP: no script; every value is escaped by `html`, and only
// http(s) URLs ever reach an href or src, so a stored `javascript:` URL can never run.
import type { FastifyReply } from 'fastify'
import type { BioPageRow } from '../db/schema.js'
import { parseStoredBlocks } from '../modules/bio-pages/bio-page-blocks.js'
import { isHttpUrl } from '../core/urls.js'
import { bioPageUrl } from '../modules/bio-pages/bio-page.mapper.js'
import { DEFAULT_CSP, html, SafeHtml, sendPage } from './html.js'

const BIO_STYLE = 'header.bio{text-align:center}img.avatar{border-radius:50%;object-fit:cover}p.description{white-space:pre-line}'

export interface BioPageViewOptions {
  /** The service's base URL, for the page's canonical address. */
  publicUrl: string
}

/** Renders a bio page as a complete HTML response. */
export function sendBioPage(reply: FastifyReply, bio: BioPageRow, options: BioPageViewOptions): FastifyReply {
  const avatar = bio.avatar && isHttpUrl(bio.avatar) ? html`<p><img class="avatar" src="${bio.avatar}" alt="" width="96" height="96"></p>` : ''
  const description = bio.description ? html`<p class="description">${bio.description}</p>` : ''
  // A block whose URL is not http(s) (only possible through a hand-edited row) is left out:
  // a button that goes nowhere helps no visitor, and its URL must never reach an href.
  const blocks = parseStoredBlocks(bio.blocks)
    .filter((block) => isHttpUrl(block.url))
    .map((block) => html`<li><a class="button" href="${block.url}" rel="noopener nofollow">${block.title}</a></li>`)
  const list = blocks.length > 0 ? html`<ul class="blocks">${blocks}</ul>` : ''
  return sendPage(reply, {
    title: bio.name,
    contentSecurityPolicy: DEFAULT_CSP,
    head: html`<style>${new SafeHtml(BIO_STYLE)}</style><link rel="canonical" href="${bioPageUrl(options.publicUrl, bio.alias)}">${bio.description ? html`<meta name="description" content="${bio.description}">` : ''}`,
    body: html`<header class="bio">${avatar}<h1>${bio.name}</h1>${description}</header>${list}`,
  })
}
