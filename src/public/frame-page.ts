// `frame` and `overlay-<id>` links: the destination in a full-size frame under a small bar with
// a link out, and for overlays the CTA box on top: a message with an optional button, or a
// contact form posting to /{alias}/contact. The box closes without JavaScript (<details>).
import type { FastifyReply } from 'fastify'
import { html, sendPage, type PageOptions, type SafeHtml } from './html.js'
import { CONTACT_LIMITS } from '../modules/overlays/contact-submission.js'
import type { OverlayContent } from '../modules/overlays/overlay-config.js'
import type { PublicLink } from '../modules/visits/alias-resolver.js'
import { linkMetaElements, linkPagePolicy, pixelScriptElements, type PixelScripts } from './link-pages.js'
import { safeHttpUrl } from '../core/urls.js'

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i

const FRAME_STYLE = html`<style>body{padding:0;overflow:hidden}main{max-width:none;height:100vh;padding:0;border-radius:0;box-shadow:none;display:flex;flex-direction:column;background:#fff}
.bar{display:flex;gap:1rem;align-items:center;justify-content:space-between;padding:.45rem .9rem;font-size:.9rem;border-bottom:1px solid #e3e6eb}
.bar strong{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}iframe{flex:1;width:100%;border:0}
.frame-placeholder{flex:1;display:flex;align-items:center;justify-content:center;background:repeating-linear-gradient(45deg,#f6f7f9 0 12px,#eef0f4 12px 24px)}
.overlay{position:fixed;left:1rem;bottom:1rem;max-width:22rem;background:#fff;color:#1d2330;padding:1rem 1.2rem;border-radius:12px;box-shadow:0 4px 18px rgba(0,0,0,.18)}
.overlay summary{cursor:pointer;text-align:right;list-style:none;font-size:.85rem}.overlay summary::before{content:"Close \\2715"}.overlay:not([open]) summary::before{content:"Show message"}
.overlay a.button{border:1px solid currentColor}.overlay p{margin:.4rem 0 .8rem}.overlay input,.overlay textarea{margin:.2rem 0 .6rem}</style>`

/** A color for a style attribute: only stored #hex values pass, nothing else reaches CSS. */
function colorOf(value: string | undefined): string | null {
  return value && HEX_COLOR.test(value) ? value : null
}

function messageOverlay(config: Record<string, string>): SafeHtml {
  const color = colorOf(config.color)
  const background = colorOf(config.bg)
  const style = [color ? `color:${color}` : '', background ? `background:${background}` : ''].filter(Boolean).join(';')
  const button = safeHttpUrl(config.link)
  return html`<details class="overlay" open${style ? html` style="${style}"` : ''}><summary aria-label="Close or show"></summary>
<p>${config.message ?? ''}</p>
${button ? html`<p><a class="button" href="${button}" target="_top" rel="noopener">${config.label ?? 'Learn more'}</a></p>` : ''}
</details>`
}

function contactOverlay(link: PublicLink, config: Record<string, string>): SafeHtml {
  return html`<details class="overlay" open><summary aria-label="Close or show"></summary>
<strong>${config.title ?? 'Contact us'}</strong>
${config.description ? html`<p>${config.description}</p>` : ''}
<form method="post" action="/${encodeURIComponent(link.alias)}/contact">
<label for="contact-name">Name</label><input id="contact-name" name="name" maxlength="${CONTACT_LIMITS.name}" autocomplete="name">
<label for="contact-email">E-mail</label><input id="contact-email" name="email" type="email" required maxlength="${CONTACT_LIMITS.email}" autocomplete="email">
<label for="contact-message">Message</label><textarea id="contact-message" name="message" rows="3" maxlength="${CONTACT_LIMITS.message}"></textarea>
<button type="submit">${config.label ?? 'Send'}</button>
</form>
</details>`
}

function overlayElement(link: PublicLink, overlay: OverlayContent | null): SafeHtml | '' {
  if (!overlay) return ''
  return overlay.type === 'contact' ? contactOverlay(link, overlay.config) : messageOverlay(overlay.config)
}

/**
 * The frame page; `frameOrigin` is the destination's origin, the only one the page may frame.
 * Without one (the dashboard's preview, which may frame nothing) a placeholder stands in for the
 * destination.
 */
export function framePageOptions(link: PublicLink, destination: string, frameOrigin: string | null, pixels: PixelScripts | null): PageOptions {
  const title = link.title ?? new URL(destination).hostname
  return {
    title,
    head: html`${FRAME_STYLE}${linkMetaElements(link)}${pixelScriptElements(pixels)}`,
    contentSecurityPolicy: linkPagePolicy({ pixels, ...(frameOrigin ? { frameOrigin } : {}) }),
    body: html`<div class="bar"><strong>${title}</strong><a href="${destination}" target="_top">Open the page &#8599;</a></div>
${frameOrigin ? html`<iframe src="${destination}" title="${title}"></iframe>` : html`<div class="frame-placeholder"><p class="muted">Your link's destination page is shown here.</p></div>`}
${link.type === 'overlay' ? overlayElement(link, link.overlay) : ''}`,
  }
}

export function sendFramePage(reply: FastifyReply, link: PublicLink, destination: string, frameOrigin: string, pixels: PixelScripts | null): FastifyReply {
  return sendPage(reply, framePageOptions(link, destination, frameOrigin, pixels))
}
