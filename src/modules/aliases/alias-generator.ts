// The one way Linkwell draws aliases for links, bio pages and QR codes: one alphabet, one random
// source, a length per use.
import { randomInt } from 'node:crypto'

/**
 * No 0/O/o, 1/l/I/i: generated aliases are read aloud, off posters and printed codes, and typed by
 * people. Lower case only, so two generated aliases never differ by letter case alone (aliases are
 * unique and resolved regardless of case, docs/adr/006-alias-case.md).
 */
export const GENERATED_ALIAS_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz'

/** What a generated alias is for. */
export type AliasUse = 'link' | 'bio' | 'qr'

/**
 * The length of a first draw. Links and bio pages stay short enough to type; QR aliases are
 * scanned rather than typed, and longer ones keep their separate namespace free of collisions.
 */
export const GENERATED_ALIAS_LENGTH: Readonly<Record<AliasUse, number>> = { link: 6, bio: 6, qr: 8 }

/** Draws a candidate alias of `length` characters; tests replace it to force collisions. */
export type AliasGenerator = (length: number) => string

/** A cryptographically random alias of `length` characters of GENERATED_ALIAS_ALPHABET. */
export function drawRandomAlias(length: number): string {
  let alias = ''
  for (let index = 0; index < length; index += 1) alias += GENERATED_ALIAS_ALPHABET.charAt(randomInt(GENERATED_ALIAS_ALPHABET.length))
  return alias
}
