// API keys, tokens and passwords: generation, hashing, constant-time comparison. In core/ because
// keys, sessions, invitations, recovery codes and link passwords all hash with it, in four modules.
import { hash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>

/** A new API key: `lw_` and 43 URL-safe random characters (256 bits). */
export function generateApiKey(): string {
  return `lw_${randomBytes(32).toString('base64url')}`
}

/** SHA-256 of a key, hex: what the database stores. */
export function hashApiKey(key: string): string {
  // The one-shot digest: every API request with a key not yet cached pays for it.
  return hash('sha256', key, 'hex')
}

/** Compares two hex digests in constant time. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}

/** `scrypt$<salt>$<hash>`, both base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(password, salt, 32)
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length)
  return timingSafeEqual(expected, actual)
}

/** A password for the first start's admin: 24 URL-safe random characters (144 bits), easy to paste. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url')
}

/** A new session token for the cookie (256 bits); the database keeps only `hashApiKey(token)`. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

/** A hash of a password nobody has, so that signing in as an unknown login costs the same scrypt as a known one. */
export const UNKNOWN_ACCOUNT_PASSWORD_HASH = `scrypt$${randomBytes(16).toString('base64url')}$${randomBytes(32).toString('base64url')}`
