// Secrets the server must read back (TOTP seeds, webhook signing secrets; API keys and passwords
// are hashes instead) sealed at rest with AES-256-GCM when SECRETS_KEY is set (ADR 025): a copy of
// the database, a backup or a replica then holds no secret a person could use. Each value gets a
// random 12-byte IV; the GCM tag makes a changed value fail to open rather than read as another
// secret. The key lives only in the environment. Values stored before the key was set (plain
// text) are still read as they are, and sealed when next written or by `linkwell secrets seal`.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/** The mark of a sealed value: `sealed:v1:<iv>.<tag>.<ciphertext>` (base64url each). */
const SEALED_PREFIX = 'sealed:v1:'

export interface SecretBox {
  /** True when a key is configured (values are sealed as they are written). */
  readonly sealing: boolean
  /** The text to store for `secret`: sealed with the key, or `secret` itself without one. */
  seal(secret: string): string
  /** The secret a stored text holds: opened when sealed, as it is when stored before the key was set. */
  open(stored: string): string
  /** True for a stored text that is sealed. */
  isSealed(stored: string): boolean
}

/** A box sealing with the 32-byte `key`, or one that stores secrets as they are without one. */
export function createSecretBox(key: Buffer | null): SecretBox {
  return {
    sealing: key !== null,
    seal(secret) {
      if (!key) return secret
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      return `${SEALED_PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${sealed.toString('base64url')}`
    },
    open(stored) {
      if (!stored.startsWith(SEALED_PREFIX)) return stored
      // A sealed value and no key (or another key): nothing usable; a server fault (a generic 500, logged).
      if (!key) throw new Error('A secret in the database is sealed, but SECRETS_KEY is not set.')
      const [iv = '', tag = '', sealed = ''] = stored.slice(SEALED_PREFIX.length).split('.')
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        throw new Error('A secret in the database cannot be opened with SECRETS_KEY (another key, or a changed value).')
      }
    },
    isSealed: (stored) => stored.startsWith(SEALED_PREFIX),
  }
}

/** SECRETS_KEY's text as a key: 32 bytes written as 64 hex digits or as base64 (44 characters); undefined when malformed. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex')
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
    if (bytes.length === 32) return bytes
  }
  return undefined
}
