import { describe, expect, it } from 'vitest'
import { parseQrData } from '../../../src/modules/qr-codes/qr-data.js'

describe('parseQrData', () => {
  it('normalises phone numbers and keeps only known fields', () => {
    expect(parseQrData('phone', '+1 (555) 010-01.99')).toEqual({ type: 'phone', data: '+15550100199' })
    expect(parseQrData('sms', { phone: '555 0100', message: 'Hi', extra: 'dropped' })).toEqual({ type: 'sms', data: { phone: '5550100', message: 'Hi' } })
    expect(parseQrData('email', { email: 'a@b.co', subject: '', body: 'x', cc: 'no' })).toEqual({ type: 'email', data: { email: 'a@b.co', body: 'x' } })
    expect(parseQrData('email', 'a@b.co')).toEqual({ type: 'email', data: 'a@b.co' })
  })

  it('fills the Wi-Fi encryption in: a password means WPA, none an open network', () => {
    expect(parseQrData('wifi', { ssid: 'Home', pass: 'secret' }).data).toEqual({ ssid: 'Home', pass: 'secret', encryption: 'WPA' })
    expect(parseQrData('wifi', { ssid: 'Cafe' }).data).toEqual({ ssid: 'Cafe', encryption: 'nopass' })
    expect(parseQrData('wifi', { ssid: 'Cafe', pass: 'x', encryption: 'nopass' }).data).toEqual({ ssid: 'Cafe', encryption: 'nopass' })
    expect(() => parseQrData('wifi', { ssid: 'Lab', encryption: 'WEP' })).toThrow('The field "data.pass" is required for WPA and WEP networks.')
  })

  it('trims vCard values, drops empty ones and needs a name', () => {
    expect(parseQrData('vcard', { fname: ' Ada ', lname: '', org: '  ', city: 'London', hobby: 'x' }).data).toEqual({ fname: 'Ada', city: 'London' })
    expect(() => parseQrData('vcard', { org: 'Only an org' })).toThrow('The field "data" must contain a name (fname or lname).')
    expect(() => parseQrData('vcard', { fname: 'A', email: 'nope' })).toThrow('The field "data.email" must be an e-mail address.')
    expect(() => parseQrData('vcard', { fname: 'A', site: 'javascript:alert(1)' })).toThrow('The field "data.site" must be an http or https URL.')
  })

  it.each([
    ['text', '', 'The field "data" must be text of 1 to 2000 characters.'],
    ['text', '   ', 'The field "data" must be text of 1 to 2000 characters.'],
    ['text', 'x'.repeat(2001), 'The field "data" must be text of 1 to 2000 characters.'],
    ['text', { text: 'object' }, 'The field "data" must be text of 1 to 2000 characters.'],
    ['link', 'javascript:alert(1)', 'The field "data" must be an http or https URL.'],
    ['link', 'http://', 'The field "data" must be an http or https URL.'],
    ['email', 'not-an-email', 'The field "data" must be an e-mail address, or an object {email, subject, body}.'],
    ['email', { subject: 'no address' }, 'The field "data"'],
    ['phone', '12', 'The field "data" must be a phone number: digits with an optional leading +.'],
    ['phone', '+12a45', 'The field "data" must be a phone number: digits with an optional leading +.'],
    ['sms', { message: 'no phone' }, 'The field "data.phone" is required.'],
    ['sms', 'string', 'The field "data" must be an object {phone, message}.'],
    ['wifi', { pass: 'x' }, 'The field "data.ssid" is required.'],
    ['wifi', { ssid: 'x'.repeat(33) }, 'The field "data.ssid" must be 1 to 32 characters.'],
    ['wifi', { ssid: 'a', pass: 'p', encryption: 'WPA3' }, 'The field "data.encryption" must be WPA, WEP or nopass.'],
    ['vcard', { fname: 'x'.repeat(201) }, 'The field "data.fname" must be text of at most 200 characters.'],
    ['vcard', ['array'], 'The field "data" must be an object with some of'],
  ] as const)('refuses %s data %j', (type, data, message) => {
    expect(() => parseQrData(type, data)).toThrow(message)
  })
})
