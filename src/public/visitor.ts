// What a request tells about its visitor: device names (for device targeting), preferred
// languages (Accept-Language, in q order) and the click handed to the recorder.
import type { IncomingHttpHeaders } from 'node:http'
import { UAParser } from 'ua-parser-js'
import { isPrefetch } from '../analytics/click-enrichment.js'
import type { ClickEvent, ClickItemType } from '../analytics/click-items.js'

// Operating systems ua-parser-js names that are Linux desktops (besides plain "Linux").
const LINUX_DESKTOPS = /^(linux|ubuntu|debian|fedora|mint|arch|centos|gentoo|slackware|suse|opensuse|mandriva|redhat|red hat|kubuntu|xubuntu|lubuntu|zenwalk|deepin|manjaro|elementary os|raspbian|pclinuxos|mageia|sabayon|linspire|linpus|vectorlinux)$/i

/**
 * The device names a user agent answers to, most specific first: e.g. an iPhone is
 * `['iphone', 'ios', 'mobile']`, a Windows PC `['windows', 'desktop']`. Unknown: `[]`.
 */
export function deviceNamesOf(userAgent: string | undefined): string[] {
  if (!userAgent) return []
  const { os, device } = new UAParser(userAgent).getResult()
  const osName = (os.name ?? '').toLowerCase()
  const model = (device.model ?? '').toLowerCase()
  const names: string[] = []
  const add = (...more: string[]) => more.forEach((name) => names.includes(name) || names.push(name))

  if (model === 'iphone' || model === 'ipod') add('iphone', 'ios', 'mobile')
  else if (model === 'ipad') add('ipad', 'ios', 'tablet')
  else if (osName === 'ios') add('ios', device.type === 'tablet' ? 'tablet' : 'mobile')
  else if (osName === 'android' || osName === 'harmonyos') add('android', device.type === 'tablet' ? 'tablet' : 'mobile')
  else if (osName.startsWith('windows phone') || osName === 'windows mobile') add('windowsphone', 'mobile')
  else if (osName === 'windows') add('windows')
  else if (osName === 'mac os' || osName === 'macos') add('macos')
  else if (osName === 'chromium os' || osName === 'chrome os') add('chromeos')
  else if (LINUX_DESKTOPS.test(osName) || (!osName && /\b(?:x11|linux)\b/i.test(userAgent))) add('linux')

  if (device.type) add(device.type)
  else if (['windows', 'macos', 'chromeos', 'linux'].includes(names[0] ?? '')) add('desktop')
  return names
}

/**
 * The visitor's languages from Accept-Language, best first (by q, ties in header order), as
 * two-letter primary codes without repeats; `q=0` means "not wanted" and is left out.
 */
export function preferredLanguagesOf(acceptLanguage: string | undefined): string[] {
  if (!acceptLanguage) return []
  const ranked: { language: string; quality: number; position: number }[] = []
  acceptLanguage.slice(0, 1000).split(',').forEach((part, position) => {
    const [tag = '', ...parameters] = part.trim().split(';')
    const language = tag.trim().toLowerCase()
    if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/.test(language)) return
    const qualityParameter = parameters.map((parameter) => parameter.trim()).find((parameter) => /^q=/i.test(parameter))
    const quality = qualityParameter === undefined ? 1 : Number(qualityParameter.slice(2))
    if (!Number.isFinite(quality) || quality <= 0) return
    ranked.push({ language: language.slice(0, 2), quality: Math.min(quality, 1), position })
  })
  ranked.sort((a, b) => b.quality - a.quality || a.position - b.position)
  return [...new Set(ranked.map((entry) => entry.language))]
}

/** A request header's text (the first one when repeated). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** What a visit is recorded from: Fastify's request, or the raw one with its client address (cached-redirect.ts). */
export interface VisitRequest {
  ip: string
  headers: IncomingHttpHeaders
}

/** The click event of a request for one item (the recorder drops bots). */
export function clickOf(request: VisitRequest, item: { accountId: number; itemType: ClickItemType; itemId: number }): ClickEvent {
  // On every redirect: headers read once and fields listed (a spread and repeated getter calls
  // measured 3.5× slower, 7 µs against 2 µs).
  const headers = request.headers
  return {
    accountId: item.accountId,
    itemType: item.itemType,
    itemId: item.itemId,
    ip: request.ip,
    userAgent: headerText(headers['user-agent']),
    referrer: headerText(headers.referer),
    acceptLanguage: headerText(headers['accept-language']),
    prefetch: isPrefetch(headers),
  }
}
