// The designer's rules and bodies: colors both ways, the client checks per type, the bodies the
// API takes, and a stored code read back into the form.
import { describe, expect, it } from 'vitest'
import { logoFileProblem } from './LogoPicker'
import { dataOf, emptyQrForm, hexToRgb, imageAddress, rgbToHex, toCreateBody, toUpdateBody, validateQrForm, valuesFromDetails, type QrDetails, type QrFormValues } from './qr-design'

function form(change: Partial<QrFormValues>): QrFormValues {
  return { ...emptyQrForm, ...change }
}

describe('QR design', () => {
  it('converts colors between the picker and the API', () => {
    expect(rgbToHex('rgb(20, 60, 160)')).toBe('#143ca0')
    expect(rgbToHex('not a color')).toBe('#000000')
    expect(hexToRgb('#143ca0')).toBe('rgb(20,60,160)')
    expect(hexToRgb('#FFFFFF')).toBe('rgb(255,255,255)')
  })

  it('checks the fields of the chosen type only', () => {
    expect(validateQrForm(form({ type: 'link', link: '' }))).toEqual({ data: 'Enter the address people should reach.' })
    expect(validateQrForm(form({ type: 'link', link: 'ftp://example.com' })).data).toMatch(/http or https/)
    expect(validateQrForm(form({ type: 'link', link: 'https://example.com/a' }))).toEqual({})
    expect(validateQrForm(form({ type: 'text', text: 'x'.repeat(2001) })).data).toBe('Must be at most 2000 characters.')
    expect(validateQrForm(form({ type: 'phone', phone: '12' })).data).toMatch(/phone number/)
    expect(validateQrForm(form({ type: 'phone', phone: '+44 (20) 7946-0000' }))).toEqual({})
    expect(validateQrForm(form({ type: 'sms', sms: { phone: 'abc', message: '' } }))).toHaveProperty('data.phone')
    expect(validateQrForm(form({ type: 'email', email: { email: 'nobody', subject: '', body: '' } }))).toHaveProperty(['data.email'])
    expect(validateQrForm(form({ type: 'wifi', wifi: { ssid: '', pass: '', encryption: 'WPA' } }))).toEqual({
      'data.ssid': 'Enter the network name (1 to 32 characters).',
      'data.pass': 'Enter the password, or choose an open network.',
    })
    expect(validateQrForm(form({ type: 'wifi', wifi: { ssid: 'Open', pass: '', encryption: 'nopass' } }))).toEqual({})
    const vcard = { ...emptyQrForm.vcard, email: 'x', site: 'example.com' }
    expect(Object.keys(validateQrForm(form({ type: 'vcard', vcard })))).toEqual(['data.fname', 'data.email', 'data.site'])
  })

  it('checks colors and the logo like the server', () => {
    const valid = { type: 'text' as const, text: 'Hi' }
    expect(validateQrForm(form({ ...valid, foreground: 'rgb(1, 2, 3)', background: 'rgb(1,2,3)' }))).toEqual({ foreground: 'Must differ from the background color.' })
    expect(validateQrForm(form({ ...valid, foreground: 'rgb(256,0,0)' })).foreground).toMatch(/rgb\(r,g,b\)/)
    expect(validateQrForm(form({ ...valid, background: '#fff' })).background).toMatch(/rgb\(r,g,b\)/)
    expect(validateQrForm(form({ ...valid, logoMode: 'upload' })).logo).toMatch(/Choose a PNG or JPEG/)
    expect(validateQrForm(form({ ...valid, logoMode: 'url', logoUrl: '/etc/passwd' })).logo).toMatch(/http or https/)
  })

  it('builds the data each type takes, leaving out empty optional parts', () => {
    expect(dataOf(form({ type: 'email', email: { email: ' a@b.c ', subject: '', body: '' } }))).toBe('a@b.c')
    expect(dataOf(form({ type: 'email', email: { email: 'a@b.c', subject: 'Hi', body: '' } }))).toEqual({ email: 'a@b.c', subject: 'Hi', body: undefined })
    expect(dataOf(form({ type: 'wifi', wifi: { ssid: 'Home', pass: 'left over', encryption: 'nopass' } }))).toEqual({ ssid: 'Home', encryption: 'nopass' })
    expect(dataOf(form({ type: 'vcard', vcard: { ...emptyQrForm.vcard, fname: ' Ada ', org: '' } }))).toEqual({ fname: 'Ada' })
    expect(toCreateBody(form({ type: 'link', link: 'https://example.com', name: '  ', logoMode: 'upload', logoPath: 'logos/a.png' }))).toEqual({
      type: 'link', data: 'https://example.com', foreground: 'rgb(0,0,0)', background: 'rgb(255,255,255)', logo: 'logos/a.png', name: undefined,
    })
  })

  it('sends the logo on update only when it changed, and empty to remove it', () => {
    const initial = form({ type: 'text', text: 'Hi', logoMode: 'upload', logoPath: 'logos/a.png' })
    expect(toUpdateBody(initial, initial)).not.toHaveProperty('logo')
    expect(toUpdateBody({ ...initial, logoPath: 'logos/b.png' }, initial)).toMatchObject({ logo: 'logos/b.png' })
    expect(toUpdateBody({ ...initial, logoMode: 'none' }, initial)).toMatchObject({ logo: '' })
    expect(toUpdateBody({ ...initial, logoMode: 'url', logoUrl: 'https://example.com/l.png' }, initial)).toMatchObject({ logo: 'https://example.com/l.png' })
  })

  it('reads a stored code back into the form', () => {
    const details: QrDetails = {
      id: 4, link: 'https://lw.test/qr/abc', scans: 2, name: 'Guest', date: '2026-01-01 00:00:00', tags: [],
      type: 'wifi', data: { ssid: 'Cafe', pass: 'x', encryption: 'WEP' }, background: 'rgb(255,255,255)', foreground: 'rgb(1,2,3)', logo: 'https://example.com/l.png',
    }
    const values = valuesFromDetails(details)
    expect(values).toMatchObject({ type: 'wifi', name: 'Guest', wifi: { ssid: 'Cafe', pass: 'x', encryption: 'WEP' }, foreground: 'rgb(1,2,3)', logoMode: 'url', logoUrl: 'https://example.com/l.png' })
    expect(valuesFromDetails({ ...details, type: 'email', data: 'a@b.c', logo: 'logos/x.png' })).toMatchObject({ email: { email: 'a@b.c', subject: '', body: '' }, logoMode: 'upload', logoPath: 'logos/x.png' })
    expect(valuesFromDetails({ ...details, type: 'link', data: 'https://example.com', logo: null })).toMatchObject({ link: 'https://example.com', logoMode: 'none' })
  })

  it('addresses the image at a size and format', () => {
    expect(imageAddress('https://lw.test/qr/abc', 'png', 600)).toBe('https://lw.test/qr/abc?size=600')
    expect(imageAddress('https://lw.test/qr/abc', 'svg', 1000)).toBe('https://lw.test/qr/abc?format=svg&size=1000')
  })

  it('checks a logo file before uploading it', () => {
    expect(logoFileProblem({ type: 'image/png', size: 1000 })).toBeUndefined()
    expect(logoFileProblem({ type: 'image/jpeg', size: 500 * 1024 })).toBeUndefined()
    expect(logoFileProblem({ type: 'image/gif', size: 1000 })).toBe('Choose a PNG or JPEG image.')
    expect(logoFileProblem({ type: 'image/png', size: 500 * 1024 + 1 })).toMatch(/at most 500 KB/)
  })
})
