// The http(s) URL rule a client's input is held to (src/core/urls.ts, isHttpUrlInput): what the
// dashboard's forms check before sending is exactly what a request passes, the schemas' HttpUrl
// and the services' checkHttpUrl together, for every sample, accepted or refused.
import { Compile } from 'typebox/compile'
import { describe, expect, it } from 'vitest'
import { HttpUrl } from '../../src/core/schemas.js'
import { checkHttpUrl, isHttpUrlInput, MAX_URL_LENGTH } from '../../src/core/urls.js'

const schema = Compile(HttpUrl)

/** What the server does with `text` sent where a request asks for an HttpUrl (the dashboard sends it trimmed). */
function serverAccepts(text: string): boolean {
  const sent = text.trim()
  if (!schema.Check(sent)) return false
  try {
    checkHttpUrl('url', sent)
    return true
  } catch {
    return false
  }
}

const SAMPLES = [
  'https://example.com', 'HTTP://EXAMPLE.COM/A?b=c#d', '  https://example.com/padded  ', 'http://127.0.0.1:8080/x',
  'https://xn--bcher-kva.example/ä', `https://example.com/${'a'.repeat(MAX_URL_LENGTH - 20)}`, `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`,
  'https:example.com', 'https://', 'https:// example.com', 'https://exa mple.com', 'https://example.com/a b', 'example.com',
  'ftp://example.com', 'javascript:alert(1)', 'data:text/html,x', 'mailto:someone@example.com', 'https://[::1]/', 'https://:80', '',
]

describe('isHttpUrlInput', () => {
  it('accepts what a request may carry as an http(s) URL, and refuses what the server would refuse', () => {
    const verdicts = SAMPLES.map((sample) => [sample.slice(0, 40), isHttpUrlInput(sample)])
    expect(verdicts).toEqual(SAMPLES.map((sample) => [sample.slice(0, 40), serverAccepts(sample)]))
    // Both ways are among the samples.
    expect(new Set(verdicts.map(([, verdict]) => verdict))).toEqual(new Set([true, false]))
  })
})
