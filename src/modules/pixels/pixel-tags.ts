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
    expected: 'a Google Tag Manager container id like GTM-XXXXXXX',
    pattern: /^GTM-[A-Z0-9]{4,10}$/,
    normalise: upperCase,
  },
  gapixel: {
    expected: 'a Google Analytics measurement id like G-XXXXXXXXXX or a property id like UA-12345678-1',
    pattern: /^(?:G-[A-Z0-9]{4,15}|UA-\d{4,10}-\d{1,4})$/,
    normalise: upperCase,
  },
  fbpixel: {
    expected: 'a Facebook pixel id of 10 to 20 digits like 123456789012345',
    pattern: /^\d{10,20}$/,
  },
  adwordspixel: {
    expected: 'a Google Ads conversion id like AW-123456789, optionally followed by /label',
    pattern: /^AW-\d{6,12}(?:\/[A-Za-z0-9_-]{1,64})?$/,
    // Only the prefix: conversion labels are case-sensitive.
    normalise: (tag) => tag.replace(/^aw-/i, 'AW-'),
  },
  linkedinpixel: {
    expected: 'a LinkedIn Insight Tag partner id of 4 to 12 digits like 1234567',
    pattern: /^\d{4,12}$/,
  },
  twitterpixel: {
    expected: 'an X (Twitter) pixel id of 5 to 10 letters and digits like o1a2b',
    pattern: /^[A-Za-z0-9]{5,10}$/,
  },
  adrollpixel: {
    expected: 'an AdRoll advertiser id of 10 to 32 letters and digits like ABCDEFGHIJKLMNOPQRSTUV',
    pattern: /^[A-Za-z0-9]{10,32}$/,
  },
  quorapixel: {
    expected: 'a Quora pixel id of 32 hexadecimal characters',
    pattern: /^[0-9a-f]{32}$/,
    normalise: lowerCase,
  },
  pinterest: {
    expected: 'a Pinterest tag id of 10 to 16 digits like 2612345678901',
    pattern: /^\d{10,16}$/,
  },
  bing: {
    expected: 'a Microsoft Advertising (Bing) UET tag id of 4 to 12 digits like 12345678',
    pattern: /^\d{4,12}$/,
  },
  snapchat: {
    expected: 'a Snapchat pixel id in UUID form like 1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d',
    pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    normalise: lowerCase,
  },
  reddit: {
    expected: 'a Reddit pixel id like t2_abc123 or a2_abc123',
    pattern: /^(?:t2|a2)_[a-z0-9]{1,32}$/,
    normalise: lowerCase,
  },
  tiktok: {
    expected: 'a TikTok pixel id of 15 to 25 letters and digits like C4ABCDEFGHIJKLMNOPQR',
    pattern: /^[A-Za-z0-9]{15,25}$/,
  },
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
