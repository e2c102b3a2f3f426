// Form bodies of the public pages and the contact-overlay fields.
import { describe, expect, it } from 'vitest'
import { checkContactSubmission as checkFields } from '../../src/modules/overlays/contact-submission.js'
import { policyOriginOf } from '../../src/modules/visits/frame-origin.js'
import { formField, parseFormFields } from '../../src/public/form-body.js'
import { safeHttpUrl } from '../../src/core/urls.js'

describe('form bodies', () => {
  it('parses urlencoded fields, keeping the first of repeated ones', () => {
    const fields = parseFormFields('password=a%20b+c&name=x&name=y&__proto__=z')
    expect(fields.password).toBe('a b c')
    expect(fields.name).toBe('x')
    expect(Object.getPrototypeOf(fields)).toBeNull()
    expect(formField(fields, '__proto__')).toBe('z')
  })

  it('reads only own text fields', () => {
    expect(formField({ password: 12 }, 'password')).toBe('')
    expect(formField(null, 'password')).toBe('')
    expect(formField({}, 'toString')).toBe('')
  })
})

/** The fields as the contact route reads them from a posted body. */
const checkContactSubmission = (body: unknown) => checkFields({ name: formField(body, 'name'), email: formField(body, 'email'), message: formField(body, 'message') })

describe('checkContactSubmission', () => {
  it('trims and accepts name, e-mail and message', () => {
    expect(checkContactSubmission({ name: ' Ada ', email: ' ada@example.com ', message: ' Hello\nthere ' })).toEqual({
      ok: true,
      contact: { name: 'Ada', email: 'ada@example.com', message: 'Hello\nthere' },
    })
    expect(checkContactSubmission({ email: 'ada@example.com' })).toEqual({ ok: true, contact: { name: '', email: 'ada@example.com', message: '' } })
  })

  it.each([{}, { email: '   ' }, { email: 'ada@' }, { email: 'a b@example.com' }, { email: ['ada@example.com'] }])('refuses %j', (body) => {
    expect(checkContactSubmission(body).ok).toBe(false)
  })

  it.each([
    { name: 'A\u0000da', email: 'ada@example.com' },
    { name: 'Ada\tLovelace', email: 'ada@example.com' },
    { email: 'ada\u0000@example.com' },
    { email: 'ada@example.com', message: 'hi\u0085' },
    { email: 'ada@example.com', message: 'hi \ud800' },
  ])('holds every field to the API\'s text rule: refuses %j', (body) => {
    expect(checkContactSubmission(body)).toMatchObject({ ok: false, problem: expect.stringContaining('characters that are not allowed') })
  })

  it('lets the message span lines and hold tabs', () => {
    expect(checkContactSubmission({ email: 'ada@example.com', message: 'a\r\n\tb' })).toMatchObject({ ok: true })
  })
})

describe('safe URLs', () => {
  it('lets only http(s) URLs out, serialised', () => {
    expect(safeHttpUrl('https://Example.com/a b')).toBe('https://example.com/a%20b')
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull()
    expect(safeHttpUrl('not a url')).toBeNull()
    expect(safeHttpUrl(null)).toBeNull()
  })

  it('names only plain origins in a policy', () => {
    expect(policyOriginOf('https://news.example.org:8443/x?y')).toBe('https://news.example.org:8443')
    expect(policyOriginOf('http://[::1]:8080/')).toBe('http://[::1]:8080')
    expect(policyOriginOf('http://a;script-src:*/')).toBeNull()
  })
})
