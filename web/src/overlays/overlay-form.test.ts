import { describe, expect, it } from 'vitest'
import { contactsCsv, contactsFileName } from './contacts-csv'
import { emptyOverlayForm, toOverlayCreateBody, toOverlayPreviewBody, toOverlayUpdateBody, validateOverlayForm } from './overlay-form'

const message = { ...emptyOverlayForm, name: 'Spring promo', message: 'Get 20% off' }
const contact = { ...emptyOverlayForm, type: 'contact' as const, name: 'Leads', email: 'sales@example.com' }

describe('overlay form', () => {
  it('sends only the fields of the overlay type, trimmed', () => {
    const values = { ...message, label: ' Shop ', link: 'https://shop.example', title: 'not a message field', email: 'x@example.com' }
    expect(toOverlayCreateBody(values)).toEqual({ type: 'message', name: 'Spring promo', message: 'Get 20% off', label: 'Shop', link: 'https://shop.example', color: '', bg: '' })
    expect(toOverlayUpdateBody({ ...contact, title: 'Talk to us', message: 'ignored' })).toEqual({ name: 'Leads', title: 'Talk to us', description: '', label: '', email: 'sales@example.com' })
  })

  it('requires each type\'s own field and mirrors the server rules', () => {
    expect(validateOverlayForm({ ...emptyOverlayForm, name: 'x' })).toEqual({ name: 'Must be 2 to 100 characters.', message: 'Enter the message visitors see.' })
    expect(validateOverlayForm({ ...message, link: 'javascript:alert(1)', color: 'red', bg: '#12345', label: 'l'.repeat(51) })).toEqual({
      link: 'Must be an http or https URL, or empty.',
      color: 'Must be a HEX color like #1e90ff or #fff, or empty.',
      bg: 'Must be a HEX color like #1e90ff or #fff, or empty.',
      label: 'Must be at most 50 characters.',
    })
    expect(validateOverlayForm({ ...contact, email: '' })).toEqual({ email: 'Enter the address that receives the messages.' })
    expect(validateOverlayForm({ ...contact, email: 'nope' })).toEqual({ email: 'Must be a valid e-mail address.' })
    expect(validateOverlayForm(message)).toEqual({})
    expect(validateOverlayForm(contact)).toEqual({})
  })

  it('previews an unfinished form with stand-ins, leaving out invalid fields', () => {
    expect(toOverlayPreviewBody({ ...emptyOverlayForm, color: 'red', bg: '#000' })).toEqual({ type: 'message', name: 'Preview', message: 'Your message', label: '', link: '', color: '', bg: '#000' })
    expect(toOverlayPreviewBody({ ...contact, email: 'bad' }).email).toBe('preview@example.com')
  })
})

describe('contacts CSV', () => {
  it('writes a header and one formula-safe, quoted row per contact', () => {
    const csv = contactsCsv([
      { date: '2026-11-23 10:00:00', name: 'Ada, Countess', email: 'ada@example.com', message: 'Call me\n"soon"' },
      { date: '2026-11-22 09:00:00', name: '=HYPERLINK("x")', email: 'b@example.com', message: '' },
    ])
    expect(csv).toBe(
      'Date (UTC),Name,E-mail,Message\r\n' +
      '2026-11-23 10:00:00,"Ada, Countess",ada@example.com,"Call me\n""soon"""\r\n' +
      `2026-11-22 09:00:00,"'=HYPERLINK(""x"")",b@example.com,\r\n`,
    )
  })

  it('names the file after the overlay', () => {
    expect(contactsFileName('Spring Leads!')).toBe('contacts-spring-leads.csv')
    expect(contactsFileName('***')).toBe('contacts-overlay.csv')
  })
})
