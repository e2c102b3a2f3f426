// What a visitor sends through a contact overlay: checked here, stored for the link's owner in
// `contacts` (overlay.service.ts saveContact). The visitors' form (public/frame-page.ts) shows the
// same limits.
import { textRuleBroken } from '../../core/text.js'

/** Limits of a contact submission, shown on the form and checked on POST (plain text of these lengths fits the form body limit). */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 1000 } as const

export interface ContactSubmission {
  name: string
  email: string
  message: string
}

export type ContactCheck = { ok: true; contact: ContactSubmission } | { ok: false; problem: string }

// The same form the overlay's own e-mail field is held to (overlay.schemas.ts).
const EMAIL_FORM = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Checks the form's fields as sent (absent ones as ''); `problem` says what to fix, for the 400 page. */
export function checkContactSubmission(fields: ContactSubmission): ContactCheck {
  // The API's rule for text (core/text.ts): only the message may span lines.
  const rules = [['name', false], ['email', false], ['message', true]] as const
  const broken = rules.find(([field, multiline]) => textRuleBroken(fields[field], multiline) !== null)
  if (broken) return { ok: false, problem: `Your ${broken[0] === 'email' ? 'e-mail address' : broken[0]} contains characters that are not allowed.` }
  const name = fields.name.trim()
  const email = fields.email.trim()
  const message = fields.message.trim()
  if (!email) return { ok: false, problem: 'Please give your e-mail address.' }
  if (email.length > CONTACT_LIMITS.email || !EMAIL_FORM.test(email)) return { ok: false, problem: 'Please give a valid e-mail address.' }
  if (name.length > CONTACT_LIMITS.name) return { ok: false, problem: `Your name may be at most ${CONTACT_LIMITS.name} characters.` }
  if (message.length > CONTACT_LIMITS.message) return { ok: false, problem: `Your message may be at most ${CONTACT_LIMITS.message} characters.` }
  return { ok: true, contact: { name, email, message } }
}
