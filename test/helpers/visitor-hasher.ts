// A visitor hasher for tests: salts derived from a fixed secret, so a test can compute the hash a
// click must have been stored with (production draws a random salt per day: visitor-hash.ts).
import { createHmac } from 'node:crypto'
import { hashWithSalt, type VisitorHasher } from '../../src/analytics/visitor-hash.js'

export function fixedSecretHasher(secret = 'test secret'): VisitorHasher {
  return {
    prepare: async () => {},
    hash: (ip, userAgent, day) => hashWithSalt(createHmac('sha256', secret).update(day).digest('base64url'), ip, userAgent),
  }
}
