import { describe, expect, it } from 'vitest'
import {
  encodeEmail,
  encodeQrPayload,
  encodeSms,
  encodeVcard,
  encodeWifi,
  escapeVcardText,
  escapeWifiValue,
  qrTrackingUrl,
} from '../../../src/modules/qr-codes/qr-payload.js'

describe('vCard 3.0', () => {
  it('writes every field in order, lines ending in CRLF', () => {
    const card = encodeVcard({
      fname: 'Ada',
      lname: 'Lovelace',
      org: 'Analytical Engines',
      phone: '+44 20 1234',
      cell: '+44 7700 900',
      fax: '+44 20 9999',
      email: 'ada@example.com',
      site: 'https://ada.example',
      street: '12 St James Square',
      city: 'London',
      state: 'Greater London',
      zip: 'SW1Y 4JH',
      country: 'UK',
    })
    expect(card).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Lovelace;Ada;;;',
        'FN:Ada Lovelace',
        'ORG:Analytical Engines',
        'TEL;TYPE=VOICE:+44 20 1234',
        'TEL;TYPE=CELL:+44 7700 900',
        'TEL;TYPE=FAX:+44 20 9999',
        'EMAIL;TYPE=INTERNET:ada@example.com',
        'URL:https://ada.example',
        'ADR:;;12 St James Square;London;Greater London;SW1Y 4JH;UK',
        'END:VCARD',
        '',
      ].join('\r\n'),
    )
  })

  it('leaves out absent fields and the address when no part of it is given', () => {
    expect(encodeVcard({ lname: 'Solo' })).toBe('BEGIN:VCARD\r\nVERSION:3.0\r\nN:Solo;;;;\r\nFN:Solo\r\nEND:VCARD\r\n')
    expect(encodeVcard({ fname: 'A', city: 'Paris' })).toContain('\r\nADR:;;;Paris;;;\r\n')
  })

  it('escapes backslash, comma, semicolon and line breaks in values', () => {
    expect(escapeVcardText('a\\b,c;d\ne\r\nf')).toBe('a\\\\b\\,c\\;d\\ne\\nf')
    const card = encodeVcard({ fname: 'Jo;hn', lname: 'Doe, Jr.', org: 'A\\B\nC' })
    expect(card).toContain('N:Doe\\, Jr.;Jo\\;hn;;;\r\n')
    expect(card).toContain('FN:Jo\\;hn Doe\\, Jr.\r\n')
    expect(card).toContain('ORG:A\\\\B\\nC\r\n')
  })
})

describe('Wi-Fi', () => {
  it('writes WPA and WEP networks with their password', () => {
    expect(encodeWifi({ ssid: 'Home', pass: 'secret', encryption: 'WPA' })).toBe('WIFI:T:WPA;S:Home;P:secret;;')
    expect(encodeWifi({ ssid: 'Old', pass: '12345', encryption: 'WEP' })).toBe('WIFI:T:WEP;S:Old;P:12345;;')
  })

  it('writes open networks without P', () => {
    expect(encodeWifi({ ssid: 'Cafe', encryption: 'nopass' })).toBe('WIFI:T:nopass;S:Cafe;;')
    expect(encodeWifi({ ssid: 'Cafe', pass: 'ignored', encryption: 'nopass' })).toBe('WIFI:T:nopass;S:Cafe;;')
  })

  it('escapes backslash, semicolon, comma, colon and double quote', () => {
    expect(escapeWifiValue('a\\b;c,d:e"f')).toBe('a\\\\b\\;c\\,d\\:e\\"f')
    expect(encodeWifi({ ssid: 'My;Net', pass: 'p:a,s"s', encryption: 'WPA' })).toBe('WIFI:T:WPA;S:My\\;Net;P:p\\:a\\,s\\"s;;')
  })
})

describe('e-mail, phone, SMS, text and link', () => {
  it('writes mailto with percent-encoded subject and body', () => {
    expect(encodeEmail('ada@example.com')).toBe('mailto:ada@example.com')
    expect(encodeEmail({ email: 'ada@example.com', subject: 'Hi & bye?', body: 'Line 1\nLine 2 100%' })).toBe(
      'mailto:ada@example.com?subject=Hi%20%26%20bye%3F&body=Line%201%0ALine%202%20100%25',
    )
    expect(encodeEmail({ email: 'ada@example.com', body: 'only body' })).toBe('mailto:ada@example.com?body=only%20body')
  })

  it('writes tel: and SMSTO:', () => {
    expect(encodeQrPayload({ type: 'phone', data: '+123456' }, '')).toBe('tel:+123456')
    expect(encodeSms({ phone: '+15550100', message: 'Hello: world' })).toBe('SMSTO:+15550100:Hello: world')
    expect(encodeSms({ phone: '15550100' })).toBe('SMSTO:15550100:')
  })

  it('keeps text as it is', () => {
    expect(encodeQrPayload({ type: 'text', data: 'Ünïcode, ; \\ text\nwith lines' }, '')).toBe('Ünïcode, ; \\ text\nwith lines')
  })

  it('encodes a link as our tracking address, not the destination', () => {
    const tracking = qrTrackingUrl('https://lw.test', 'abcd2345')
    expect(tracking).toBe('https://lw.test/qr/abcd2345/scan')
    expect(encodeQrPayload({ type: 'link', data: 'https://example.com/page' }, tracking)).toBe(tracking)
  })

  it('dispatches every type to its format', () => {
    expect(encodeQrPayload({ type: 'wifi', data: { ssid: 'N', encryption: 'nopass' } }, '')).toBe('WIFI:T:nopass;S:N;;')
    expect(encodeQrPayload({ type: 'sms', data: { phone: '123' } }, '')).toBe('SMSTO:123:')
    expect(encodeQrPayload({ type: 'email', data: 'a@b.c' }, '')).toBe('mailto:a@b.c')
    expect(encodeQrPayload({ type: 'vcard', data: { fname: 'X' } }, '')).toMatch(/^BEGIN:VCARD\r\n/)
  })
})
