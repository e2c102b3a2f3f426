import { ValidationError } from '../../core/errors.js'

// The pixel providers and the form of each one's tag (decisions §6: `tag` checked per provider).
// Tags end up inside the providers' tracking snippets on our redirect pages, so a strict
// per-provider form is also what keeps markup and script out of them.
/** spec: Pixel types. */
export const PIXEL_TYPES = [
  'gtmpixel', 'gapixel', 'fbpixel', 'adwordspixel', 'linkedinpixel', 'twitterpixel', 'adrollpixel',
  'quorapixel', 'pinterest', 'bing', 'snapchat', 'reddit', 'tiktok',
] as const

export type PixelType = (typeof PIXEL_TYPES)[number]

interface PixelTagRule {
  /** The provider's name as people know it. */
  label: string
  /** A tag of the right form, shown as a placeholder. */
  example: string
  /** Completes "must be …" in the error message: the provider and its id's form. */
  expected: string
  pattern: RegExp
  /** Brings a tag into the one spelling the provider uses, so duplicates are found. */
  normalise?: (tag: string) => string
}

const upperCase = (tag: string) => tag.toUpperCase()
const lowerCase = (tag: string) => tag.toLowerCase()

const PIXEL_TAG_RULES: Record<PixelType, PixelTagRule> = {
  gtmpixel: {
    label: 'Google Tag Manager',
    example: 'GTM-K9X2LM7',
    expected: 'a Google Tag Manager container id like GTM-XXXXXXX',
    pattern: /^GTM-[A-Z0-9]{4,10}$/,
    normalise: upperCase,
  },
  gapixel: {
    label: 'Google Analytics',
    example: 'G-ABCDE12345',
    expected: 'a Google Analytics measurement id like G-XXXXXXXXXX or a property id like UA-12345678-1',
    pattern: /^(?:G-[A-Z0-9]{4,15}|UA-\d{4,10}-\d{1,4})$/,
    normalise: upperCase,
  },
  fbpixel: {
    label: 'Facebook (Meta) Pixel',
    example: '123456789012345',
    expected: 'a Facebook pixel id of 10 to 20 digits like 123456789012345',
    pattern: /^\d{10,20}$/,
  },
  adwordspixel: {
    label: 'Google Ads',
    example: 'AW-123456789',
    expected: 'a Google Ads conversion id like AW-123456789, optionally followed by /label',
    pattern: /^AW-\d{6,12}(?:\/[A-Za-z0-9_-]{1,64})?$/,
    // Only the prefix: conversion labels are case-sensitive.
    normalise: (tag) => tag.replace(/^aw-/i, 'AW-'),
  },
  linkedinpixel: {
    label: 'LinkedIn Insight Tag',
    example: '1234567',
    expected: 'a LinkedIn Insight Tag partner id of 4 to 12 digits like 1234567',
    pattern: /^\d{4,12}$/,
  },
  twitterpixel: {
    label: 'X (Twitter)',
    example: 'o1a2b',
    expected: 'an X (Twitter) pixel id of 5 to 10 letters and digits like o1a2b',
    pattern: /^[A-Za-z0-9]{5,10}$/,
  },
  adrollpixel: {
    label: 'AdRoll',
    example: 'ABCDEFGHIJKLMNOPQRSTUV',
    expected: 'an AdRoll advertiser id of 10 to 32 letters and digits like ABCDEFGHIJKLMNOPQRSTUV',
    pattern: /^[A-Za-z0-9]{10,32}$/,
  },
  quorapixel: {
    label: 'Quora',
    example: '0123456789abcdef0123456789abcdef',
    expected: 'a Quora pixel id of 32 hexadecimal characters',
    pattern: /^[0-9a-f]{32}$/,
    normalise: lowerCase,
  },
  pinterest: {
    label: 'Pinterest',
    example: '2612345678901',
    expected: 'a Pinterest tag id of 10 to 16 digits like 2612345678901',
    pattern: /^\d{10,16}$/,
  },
  bing: {
    label: 'Microsoft Advertising (Bing)',
    example: '12345678',
    expected: 'a Microsoft Advertising (Bing) UET tag id of 4 to 12 digits like 12345678',
    pattern: /^\d{4,12}$/,
  },
  snapchat: {
    label: 'Snapchat',
    example: '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d',
    expected: 'a Snapchat pixel id in UUID form like 1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d',
    pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    normalise: lowerCase,
  },
  reddit: {
    label: 'Reddit',
    example: 't2_abc123',
    expected: 'a Reddit pixel id like t2_abc123 or a2_abc123',
    pattern: /^(?:t2|a2)_[a-z0-9]{1,32}$/,
    normalise: lowerCase,
  },
  tiktok: {
    label: 'TikTok',
    example: 'C4ABCDEFGHIJKLMNOPQR',
    expected: 'a TikTok pixel id of 15 to 25 letters and digits like C4ABCDEFGHIJKLMNOPQR',
    pattern: /^[A-Za-z0-9]{15,25}$/,
  },
}

/** What a client needs to check a tag as normalisePixelTag does, without a second copy of the rules. */
export interface PixelProvider {
  type: PixelType
  label: string
  example: string
  /** The message's rule: a refused tag is answered `must be <expected>`. */
  expected: string
  /** `new RegExp(pattern, flags).test(tag.trim())` is true exactly for the tags the server accepts. */
  pattern: string
  flags: string
}

/**
 * The providers in the spec's order. A rule that normalises only changes letter case (to the
 * provider's spelling), so "accepted" is the canonical pattern matched case-insensitively.
 */
export function listPixelProviders(): PixelProvider[] {
  return PIXEL_TYPES.map((type) => {
    const rule = PIXEL_TAG_RULES[type]
    return { type, label: rule.label, example: rule.example, expected: rule.expected, pattern: rule.pattern.source, flags: rule.normalise ? 'i' : '' }
  })
}

/** True for the spec's pixel types. */
export function isPixelType(type: string): type is PixelType {
  return (PIXEL_TYPES as readonly string[]).includes(type)
}

/**
 * Checks `tag` against the provider's form and returns it trimmed and in the provider's spelling
 * (e.g. `gtm-abc1234` → `GTM-ABC1234`); throws a ValidationError naming the expected form.
 */
export function normalisePixelTag(type: PixelType, tag: string): string {
  const rule = PIXEL_TAG_RULES[type]
  const trimmed = tag.trim()
  const normalised = rule.normalise ? rule.normalise(trimmed) : trimmed
  if (!rule.pattern.test(normalised)) throw ValidationError.field('tag', `must be ${rule.expected}`)
  return normalised
}
