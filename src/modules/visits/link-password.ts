// The password form of a protected link.
import { verifyPassword } from '../accounts/secrets.js'

/** Longest password checked; anything longer is wrong without spending a hash on it. */
const MAX_PASSWORD_LENGTH = 1_000

/** True when `password` matches; a stored hash of an unknown form matches nothing. */
export async function linkPasswordMatches(password: string, passwordHash: string): Promise<boolean> {
  if (password === '' || password.length > MAX_PASSWORD_LENGTH) return false
  try {
    return await verifyPassword(password, passwordHash)
  } catch {
    return false
  }
}
