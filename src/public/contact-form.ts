// A contact-overlay submission: checked here, stored for the link's owner in `contacts`.
import { CONTACT_LIMITS } from './frame-page.js'
import { formField } from './form-body.js'
import { textRuleBroken } from '../core/text.js'

export interface ContactSubmission {
  name: string
  email: string
  message: string
}

export type ContactCheck = { ok: true; contact: ContactSubmission } | { ok: false; problem: string }

// The same form the overlay's own e-mail field is held to (overlay.schemas.ts).
const EMAIL_FORM = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Reads and checks the fields; `problem` says what to fix, for the 400 page. */
export function checkContactSubmission(body: unknown): ContactCheck {
  // The API's rule for text (core/text.ts): only the message may span lines.
  const fields = [['name', false], ['email', false], ['message', true]] as const
  const broken = fields.find(([field, multiline]) => textRuleBroken(formField(body, field), multiline) !== null)
  if (broken) return { ok: false, problem: `Your ${broken[0] === 'email' ? 'e-mail address' : broken[0]} contains characters that are not allowed.` }
  const name = formField(body, 'name').trim()
  const email = formField(body, 'email').trim()
  const message = formField(body, 'message').trim()
  if (!email) return { ok: false, problem: 'Please give your e-mail address.' }
  if (email.length > CONTACT_LIMITS.email || !EMAIL_FORM.test(email)) return { ok: false, problem: 'Please give a valid e-mail address.' }
  if (name.length > CONTACT_LIMITS.name) return { ok: false, problem: `Your name may be at most ${CONTACT_LIMITS.name} characters.` }
  if (message.length > CONTACT_LIMITS.message) return { ok: false, problem: `Your message may be at most ${CONTACT_LIMITS.message} characters.` }
  return { ok: true, contact: { name, email, message } }
}
