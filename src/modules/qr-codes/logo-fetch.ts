// Fetches a logo image from a client-given http(s) URL, once, at QR create/update time
// (decisions §6). Every hop's host is resolved here and refused when ANY of its addresses is not
// public; the connection then goes to the checked address, so a second DNS answer (rebinding)
// cannot redirect it. Redirects are followed by hand so each one is checked the same way.
import { isHttpScheme } from '../../core/urls.js'
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { isPublicAddress, pinnedLookup, systemResolver, type AddressPolicy, type HostResolver, type ResolvedAddress } from '../../core/address-policy.js'
import { ValidationError } from '../../core/errors.js'

export const LOGO_MAX_BYTES = 500 * 1024
export const LOGO_FETCH_TIMEOUT_MS = 5_000
export const LOGO_MAX_REDIRECTS = 3

export type { HostResolver, ResolvedAddress }

export interface LogoFetchOptions {
  /** Which resolved addresses may be connected to; tests loosen it to reach a local server. */
  isAllowedAddress?: AddressPolicy
  resolveHost?: HostResolver
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
}

/** The 400 every fetch failure becomes: `The logo could not be fetched: <reason>.` */
export function logoFetchError(reason: string): ValidationError {
  return new ValidationError(`The logo could not be fetched: ${reason}.`, 'logo')
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff])

/** True when the bytes start like a PNG or a JPEG file; the Content-Type header is not trusted. */
export function isPngOrJpeg(bytes: Buffer): boolean {
  return bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.subarray(0, 3).equals(JPEG_SIGNATURE)
}

function parseHttpUrl(text: string, base?: URL): URL {
  let url: URL
  try {
    url = new URL(text, base)
  } catch {
    throw logoFetchError('the address is not a valid URL')
  }
  if (!isHttpScheme(url)) throw logoFetchError('only http and https addresses are allowed')
  if (url.username || url.password) throw logoFetchError('addresses with credentials are not allowed')
  return url
}

/** Settles like `work`, or rejects as soon as `signal` aborts (DNS lookups cannot be cancelled). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Resolves the URL's host and picks the address to connect to, refusing any non-public answer. */
async function checkedAddressOf(url: URL, resolveHost: HostResolver, isAllowed: AddressPolicy, signal: AbortSignal): Promise<ResolvedAddress> {
  // URL keeps IPv6 literals in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: ResolvedAddress[]
  const literalFamily = isIP(host)
  if (literalFamily !== 0) {
    addresses = [{ address: host, family: literalFamily as 4 | 6 }]
  } else {
    try {
      addresses = await untilAborted(resolveHost(host), signal)
    } catch (error) {
      if (signal.aborted) throw error
      throw logoFetchError(`the host ${host} could not be resolved`)
    }
  }
  const first = addresses[0]
  if (!first) throw logoFetchError(`the host ${host} could not be resolved`)
  if (addresses.some((answer) => !isAllowed(answer.address))) {
    throw logoFetchError(`the host ${host} resolves to a private, local or reserved address`)
  }
  return first
}

function sendRequest(url: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = transport.request(url, {
      method: 'GET',
      // No connection pooling: a pooled socket could belong to another, unchecked address.
      agent: false,
      lookup: pinnedLookup(pinned),
      signal,
      headers: { 'user-agent': 'Linkwell logo fetcher', accept: 'image/png, image/jpeg' },
    })
    request.once('response', resolve)
    request.once('error', reject)
    request.end()
  })
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw logoFetchError(`the image is larger than ${Math.floor(maxBytes / 1024)} KB`)
  }
  const chunks: Buffer[] = []
  let received = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    received += chunk.length
    if (received > maxBytes) {
      response.destroy()
      throw logoFetchError(`the image is larger than ${Math.floor(maxBytes / 1024)} KB`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

async function fetchWithinDeadline(start: URL, options: Required<LogoFetchOptions>, signal: AbortSignal): Promise<Buffer> {
  let url = start
  for (let redirects = 0; ; redirects += 1) {
    const pinned = await checkedAddressOf(url, options.resolveHost, options.isAllowedAddress, signal)
    const response = await sendRequest(url, pinned, signal)
    const status = response.statusCode ?? 0
    if (status >= 300 && status < 400 && response.headers.location) {
      response.destroy()
      if (redirects >= options.maxRedirects) throw logoFetchError(`more than ${options.maxRedirects} redirects`)
      url = parseHttpUrl(response.headers.location, url)
      continue
    }
    if (status !== 200) {
      response.destroy()
      throw logoFetchError(`the server answered HTTP ${status}`)
    }
    const body = await readBody(response, options.maxBytes)
    if (!isPngOrJpeg(body)) throw logoFetchError('the file is not a PNG or JPEG image')
    return body
  }
}

/**
 * Downloads a PNG or JPEG logo from an http(s) URL under the rules of decisions §6: public
 * addresses only (every hop), at most 3 redirects, 500 KB and 5 s in total. Every failure is a
 * ValidationError (400) whose message starts `The logo could not be fetched:`.
 */
export async function fetchLogo(source: string, overrides: LogoFetchOptions = {}): Promise<Buffer> {
  const options: Required<LogoFetchOptions> = {
    isAllowedAddress: overrides.isAllowedAddress ?? isPublicAddress,
    resolveHost: overrides.resolveHost ?? systemResolver,
    maxBytes: overrides.maxBytes ?? LOGO_MAX_BYTES,
    timeoutMs: overrides.timeoutMs ?? LOGO_FETCH_TIMEOUT_MS,
    maxRedirects: overrides.maxRedirects ?? LOGO_MAX_REDIRECTS,
  }
  const url = parseHttpUrl(source)
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs)
  try {
    return await fetchWithinDeadline(url, options, deadline.signal)
  } catch (error) {
    if (error instanceof ValidationError) throw error
    if (deadline.signal.aborted) throw logoFetchError(`no complete answer within ${options.timeoutMs / 1000} s`)
    throw logoFetchError(`the connection failed (${(error as NodeJS.ErrnoException).code ?? 'network error'})`)
  } finally {
    clearTimeout(timer)
  }
}
