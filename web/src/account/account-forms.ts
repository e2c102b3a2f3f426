// Client-side checks of the account forms, mirroring the server (decisions §6: Account).

export interface PasswordChange {
  current: string
  next: string
  confirm: string
}

/** A new password: 8+ characters (the server's rule), typed the same twice, not the current one. */
export function checkPasswordChange(values: PasswordChange): Partial<Record<keyof PasswordChange, string>> {
  const errors: Partial<Record<keyof PasswordChange, string>> = {}
  if (!values.current) errors.current = 'Enter your current password.'
  if (values.next.length < 8) errors.next = 'Use at least 8 characters.'
  else if (values.next.length > 256) errors.next = 'Use at most 256 characters.'
  else if (values.next === values.current) errors.next = 'Choose a password different from the current one.'
  if (!errors.next && values.confirm !== values.next) errors.confirm = 'The two passwords differ.'
  return errors
}

/** The server's e-mail rule, roughly: something@something.tld, at most 254 characters. */
export function checkEmail(email: string): string | undefined {
  const trimmed = email.trim()
  if (!trimmed) return 'Enter an e-mail address.'
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) return 'Enter a valid e-mail address, like you@example.com.'
  return undefined
}

export interface KeyDraft {
  name: string
  /** YYYY-MM-DD, or '' for a key that never expires. */
  expires: string
}

/** The fields of the key form, as POST /api/key/add names them. */
export const KEY_FIELDS: ReadonlyArray<keyof KeyDraft> = ['name', 'expires']

export function checkKeyDraft(draft: KeyDraft, today: string): Partial<Record<keyof KeyDraft, string>> {
  const errors: Partial<Record<keyof KeyDraft, string>> = {}
  if (!draft.name.trim()) errors.name = 'Name the key after where it is used, like "Zapier".'
  else if (draft.name.trim().length > 100) errors.name = 'Use at most 100 characters.'
  if (draft.expires && draft.expires <= today) errors.expires = 'Choose a day after today.'
  return errors
}
