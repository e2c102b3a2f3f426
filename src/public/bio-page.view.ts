// The public bio page at `{base}/{alias}`: avatar, name, description and the link blocks in
// order. Plain HTML under DEFAULT_CSP: no script; every value is escaped by `html`, and only
// http(s) URLs ever reach an href or src, so a stored `javascript:` URL can never run.
// The dashboard's preview (POST /api/bio/preview) is this same rendering of the unsaved draft.
import type { FastifyReply } from 'fastify'
import type { BioPageRow } from '../db/schema.js'
import { parseStoredBlocks } from '../modules/bio-pages/bio-page-blocks.js'
import type { BioPageContent } from '../modules/bio-pages/bio-page.service.js'
import { isHttpUrl } from '../core/urls.js'
import { bioPageUrl } from '../modules/bio-pages/bio-page.mapper.js'
import { DEFAULT_CSP, html, renderPage, SafeHtml, sendPage } from './html.js'

const BIO_STYLE = 'header.bio{text-align:center}img.avatar{border-radius:50%;object-fit:cover}p.description{white-space:pre-line}'

export interface BioPageViewOptions {
  /** The service's base URL, for the page's canonical address. */
  publicUrl: string
}

function renderBioPage(bio: BioPageContent, options: BioPageViewOptions, extraHead: SafeHtml | string = '') {
  const avatar = bio.avatar && isHttpUrl(bio.avatar) ? html`<p><img class="avatar" src="${bio.avatar}" alt="" width="96" height="96"></p>` : ''
  const description = bio.description ? html`<p class="description">${bio.description}</p>` : ''
  // A block whose URL is not http(s) (only possible through a hand-edited row, or a draft being
  // typed) is left out: a button that goes nowhere helps no visitor, and its URL must never reach an href.
  const blocks = bio.blocks
    .filter((block) => isHttpUrl(block.url))
    .map((block) => html`<li><a class="button" href="${block.url}" rel="noopener nofollow">${block.title}</a></li>`)
  const list = blocks.length > 0 ? html`<ul class="blocks">${blocks}</ul>` : ''
  return {
    title: bio.name,
    head: html`<style>${new SafeHtml(BIO_STYLE)}</style><link rel="canonical" href="${bioPageUrl(options.publicUrl, bio.alias)}">${bio.description ? html`<meta name="description" content="${bio.description}">` : ''}${extraHead}`,
    body: html`<header class="bio">${avatar}<h1>${bio.name}</h1>${description}</header>${list}`,
  }
}

/** Renders a bio page as a complete HTML response. */
export function sendBioPage(reply: FastifyReply, bio: BioPageRow, options: BioPageViewOptions): FastifyReply {
  return sendPage(reply, { ...renderBioPage({ ...bio, blocks: parseStoredBlocks(bio.blocks) }, options), contentSecurityPolicy: DEFAULT_CSP })
}

/**
 * The page's HTML document for the dashboard's preview frame. Its links open a new tab (the frame
 * is sandboxed and may not navigate itself away to another site).
 */
export function bioPagePreviewDocument(options: BioPageViewOptions): (bio: BioPageContent) => string {
  return (bio) => renderPage(renderBioPage(bio, options, html`<base target="_blank">`))
}
