// The password form of a protected link. A link imported from Kutt keeps Kutt's bcrypt hash
// (docs/adr/030-import-conflicts.md): it is verified as it is, and replaced by Linkwell's scrypt
// hash at the first right password.
import bcrypt from 'bcryptjs'
import { hashPassword, verifyPassword } from '../../core/secrets.js'

/** `$2a$`, `$2b$` or `$2y$`, cost, then 53 characters of salt and hash: bcrypt's modular crypt form. */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/

export function isBcryptHash(stored: string): boolean {
  return BCRYPT_HASH.test(stored)
}

/** Longest password checked; anything longer is wrong without spending a hash on it. */
const MAX_PASSWORD_LENGTH = 1_000

/** True when `password` matches; a stored hash of an unknown form matches nothing. */
export async function linkPasswordMatches(password: string, passwordHash: string): Promise<boolean> {
  if (password === '' || password.length > MAX_PASSWORD_LENGTH) return false
  try {
    // bcrypt reads only a password's first 72 bytes, as Kutt's did.
    if (isBcryptHash(passwordHash)) return await bcrypt.compare(password, passwordHash)
    return await verifyPassword(password, passwordHash)
  } catch {
    return false
  }
}

/**
 * Replaces a link's bcrypt hash (a Kutt import's) by Linkwell's own once `password` opened it: only
 * while the hash is still that one (a password changed meanwhile stays). A resolver's cached copy
 * keeps the bcrypt hash until it is read again; it still opens with the same password.
 */
export function createPasswordUpgrade(replacePasswordHash: (linkId: number, from: string, to: string) => Promise<void>) {
  return async (linkId: number, from: string, password: string): Promise<void> => {
    if (isBcryptHash(from)) await replacePasswordHash(linkId, from, await hashPassword(password))
  }
}
