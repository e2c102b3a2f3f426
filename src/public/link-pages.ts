// The pages a link visit can show: password form, expired notice, splash interstitials, the
// pixel page, and short notices. Every value goes through `html` (escaped); every page that
// forwards does so with a meta refresh and a visible link, so none needs JavaScript. Pixel
// scripts, where a link has pixels, run under a per-response nonce with only their hosts allowed.
import { randomBytes } from 'node:crypto'
import type { FastifyReply } from 'fastify'
import { html, SafeHtml, sendPage, type PageOptions } from './html.js'
import type { PublicLink } from '../modules/visits/alias-resolver.js'
import { DEFAULT_SPLASH_COUNTER } from '../modules/splash-pages/splash-page.schemas.js'
import type { SplashContent } from '../modules/splash-pages/splash-page-config.js'
import type { PixelSnippet } from './pixel-snippets.js'
import { safeHttpUrl } from '../core/urls.js'

/** Seconds the pixel page waits before forwarding, so the providers' scripts can report. */
export const PIXEL_PAGE_DELAY_SECONDS = 1
/** Seconds the generic splash interstitial (a `splash` link without a splash page) shows: a splash page's default. */
export const GENERIC_SPLASH_SECONDS = DEFAULT_SPLASH_COUNTER

/** Pixel scripts of one response: the snippets and the nonce that lets them run. */
export interface PixelScripts {
  nonce: string
  snippets: readonly PixelSnippet[]
}

export function pixelScriptsOf(snippets: readonly PixelSnippet[]): PixelScripts | null {
  return snippets.length > 0 ? { nonce: randomBytes(16).toString('base64'), snippets } : null
}

export interface PolicyParts {
  pixels?: PixelScripts | null
  /** An origin the page frames (see policyOriginOf). */
  frameOrigin?: string
}

/** The Content-Security-Policy of a link page: nothing but styles and images, plus what `parts` need. */
export function linkPagePolicy(parts: PolicyParts = {}): string {
  const directives = ["default-src 'none'", "style-src 'unsafe-inline'", 'img-src https: http: data:']
  if (parts.pixels) {
    const scriptHosts = new Set(parts.pixels.snippets.flatMap((snippet) => snippet.scriptHosts))
    const connectHosts = new Set(parts.pixels.snippets.flatMap((snippet) => snippet.connectHosts))
    directives.push(`script-src 'nonce-${parts.pixels.nonce}' ${[...scriptHosts].join(' ')}`)
    directives.push(`connect-src ${[...connectHosts].join(' ')}`)
  }
  if (parts.frameOrigin) directives.push(`frame-src ${parts.frameOrigin}`)
  directives.push("form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'")
  return directives.join('; ')
}

/** <script> elements of the pixel snippets. */
export function pixelScriptElements(pixels: PixelScripts | null | undefined): SafeHtml[] {
  // The snippets escape their only variable part (jsString); html-escaping would break the code.
  return (pixels?.snippets ?? []).map((snippet) => html`<script nonce="${pixels!.nonce}">${new SafeHtml(snippet.script)}</script>`)
}

/** Title and description tags of a link, for the pages it shows and for link previews. */
export function linkMetaElements(link: PublicLink): SafeHtml {
  return html`${link.title ? html`<meta property="og:title" content="${link.title}">` : ''}${
    link.description ? html`<meta name="description" content="${link.description}"><meta property="og:description" content="${link.description}">` : ''}`
}

/** A meta refresh to `destination` after `seconds`. */
export function refreshElement(seconds: number, destination: string): SafeHtml {
  return html`<meta http-equiv="refresh" content="${seconds};url=${destination}">`
}

/** The password form (GET shows it; POST /{alias} checks it: 401 with `error` when wrong). */
export function sendPasswordPage(reply: FastifyReply, link: PublicLink, options: { error?: string; status?: number } = {}): FastifyReply {
  return sendPage(reply, {
    status: options.status ?? 200,
    title: 'Password required',
    body: html`<h1>This link is protected</h1>
<p class="muted">Enter the password to continue.</p>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
<form method="post" action="/${encodeURIComponent(link.alias)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autofocus autocomplete="current-password" maxlength="1000">
<button type="submit">Continue</button>
</form>`,
  })
}

/** 410: the link existed but its expiry date has passed. */
export function sendExpiredPage(reply: FastifyReply): FastifyReply {
  return sendPage(reply, {
    status: 410,
    title: 'Link expired',
    body: html`<h1>This link has expired</h1><p class="muted">It is no longer available.</p>`,
  })
}

function destinationLabel(destination: string): string {
  const url = new URL(destination)
  return url.hostname + (url.pathname === '/' ? '' : url.pathname)
}

/** The page a link with pixels goes through: the scripts load, then the visitor is forwarded. */
export function sendPixelPage(reply: FastifyReply, link: PublicLink, destination: string, pixels: PixelScripts): FastifyReply {
  return sendPage(reply, {
    title: link.title ?? 'Redirecting…',
    head: html`${refreshElement(PIXEL_PAGE_DELAY_SECONDS, destination)}${linkMetaElements(link)}${pixelScriptElements(pixels)}`,
    contentSecurityPolicy: linkPagePolicy({ pixels }),
    body: html`<h1>Redirecting&hellip;</h1>
<p class="muted">You are being taken to ${destinationLabel(destination)}.</p>
<p><a class="button" href="${destination}">Continue</a></p>`,
  })
}

function splashBody(link: PublicLink, destination: string, splash: SplashContent | null): SafeHtml {
  if (!splash) {
    return html`<h1>${link.title ?? 'You are leaving for another site'}</h1>
${link.description ? html`<p>${link.description}</p>` : ''}
<p class="muted">You will be taken to ${destinationLabel(destination)} in ${GENERIC_SPLASH_SECONDS} seconds.</p>
<p><a class="button" href="${destination}">Continue</a></p>`
  }
  const image = safeHttpUrl(splash.image)
  const product = safeHttpUrl(splash.link)
  return html`<h1>${splash.title}</h1>
${image ? html`<p><img src="${image}" alt="" style="max-width:100%;border-radius:8px"></p>` : ''}
${splash.description ? html`<p>${splash.description}</p>` : ''}
${product ? html`<p><a class="button" href="${product}" rel="noopener">View the offer</a></p>` : ''}
<p class="muted">You will be taken to ${destinationLabel(destination)} in ${splash.counter} seconds.</p>
<p><a href="${destination}">Continue to the destination</a></p>`
}

/**
 * A `splash` link's interstitial page: its splash page, or the generic one. `forward` false leaves
 * out the timed forward (the dashboard's preview shows the page and stays on it).
 */
export function splashPageOptions(link: PublicLink, destination: string, pixels: PixelScripts | null, forward = true): PageOptions {
  const seconds = link.splash ? link.splash.counter : GENERIC_SPLASH_SECONDS
  return {
    title: link.splash?.title || link.title || 'Redirecting…',
    head: html`${forward ? refreshElement(seconds, destination) : ''}${linkMetaElements(link)}${pixelScriptElements(pixels)}`,
    contentSecurityPolicy: linkPagePolicy({ pixels }),
    body: splashBody(link, destination, link.splash),
  }
}

/** A `splash` link's interstitial: its splash page, or the generic one, then onward. */
export function sendSplashPage(reply: FastifyReply, link: PublicLink, destination: string, pixels: PixelScripts | null): FastifyReply {
  return sendPage(reply, splashPageOptions(link, destination, pixels))
}
