// Server-rendered pages: escaping and one small layout with a strict Content-Security-Policy.
// Every value that reaches HTML goes through `escapeHtml` (or `html` below), so names, titles and
// URLs cannot inject markup or script.
import type { FastifyReply } from 'fastify'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (char) => ESCAPES[char]!)
}

/** Markup that is already safe (built by `html`); anything else interpolated is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` results and arrays of them stay as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? ''
  values.forEach((value, index) => {
    const parts = Array.isArray(value) ? value : [value]
    out += parts.map((part) => (part instanceof SafeHtml ? part.value : escapeHtml(part))).join('')
    out += strings[index + 1] ?? ''
  })
  return new SafeHtml(out)
}

/** The policy of every page: no script, styles inline only, forms post back here. */
export const DEFAULT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

export interface PageOptions {
  title: string
  body: SafeHtml
  status?: number
  /** Replaces DEFAULT_CSP, for pages that must load a pixel script or frame a destination. */
  contentSecurityPolicy?: string
  /** Extra elements for <head> (e.g. a meta refresh). */
  head?: SafeHtml
}

const STYLE = `body{font-family:system-ui,-apple-system,sans-serif;margin:0;padding:2rem 1rem;background:#f6f7f9;color:#1d2330}
main{max-width:34rem;margin:0 auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.4rem;margin:0 0 1rem}a.button,button{display:inline-block;background:#2457d6;color:#fff;border:0;border-radius:8px;padding:.7rem 1.2rem;font-size:1rem;text-decoration:none;cursor:pointer}
input,textarea{width:100%;box-sizing:border-box;padding:.6rem;margin:.3rem 0 1rem;border:1px solid #c9ced8;border-radius:8px;font-size:1rem}
.muted{color:#667085;font-size:.9rem}.error{color:#b42318}ul.blocks{list-style:none;padding:0}ul.blocks li{margin:.6rem 0}ul.blocks a{display:block;text-align:center}`

/**
 * The complete HTML document of a page (its headers are sendPage's); previews show it as is. The
 * empty icon spares browsers a /favicon.ico request, which would reach the alias lookup and 404.
 */
export function renderPage(options: PageOptions): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${options.title}</title><style>${new SafeHtml(STYLE)}</style>${options.head ?? ''}</head>
<body><main>${options.body}</main></body></html>`.value
}

/** Sends a complete HTML page with security headers. */
export function sendPage(reply: FastifyReply, options: PageOptions): FastifyReply {
  const document = renderPage(options)
  return reply
    .code(options.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', options.contentSecurityPolicy ?? DEFAULT_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(document)
}

/** A plain "not found" page (public side; the API answers JSON). */
export function sendNotFoundPage(reply: FastifyReply): FastifyReply {
  return sendPage(reply, { status: 404, title: 'Not found', body: html`<h1>Not found</h1><p class="muted">This link does not exist or is no longer available.</p>` })
}

/** A short notice page (contact thanks, bad input, …). */
export function sendNoticePage(reply: FastifyReply, status: number, title: string, text: string, continueTo?: string): FastifyReply {
  return sendPage(reply, {
    status,
    title,
    body: html`<h1>${title}</h1><p>${text}</p>${continueTo ? html`<p><a class="button" href="${continueTo}">Continue</a></p>` : ''}`,
  })
}

/** 429: too many attempts (a password, a form); the visitor may try again after `retryAfterSeconds`. */
export function sendTooManyAttemptsPage(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  const wait = retryAfterSeconds < 120 ? `${retryAfterSeconds} seconds` : `${Math.ceil(retryAfterSeconds / 60)} minutes`
  reply.header('retry-after', String(retryAfterSeconds))
  return sendNoticePage(reply, 429, 'Too many attempts', `Please wait ${wait} before trying again.`)
}
