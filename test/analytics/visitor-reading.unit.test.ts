// The one reading of a visitor's headers: device names for targeting and the statistics'
// browser/OS/device come from one OS classification; the counted language is the best of the
// same Accept-Language reading targeting uses.
import { describe, expect, it } from 'vitest'
import { DEVICE_TYPES, describeUserAgent, deviceNamesOf, preferredLanguageOf, preferredLanguagesOf } from '../../src/analytics/visitor-reading.js'
import { BROWSER_USER_AGENTS } from '../../src/analytics/click-seed.js'

const USER_AGENTS = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1',
  androidPhone: 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36',
  androidTablet: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  ubuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
  linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  windowsPhone: 'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.14977',
  // Where the two former copies disagreed: the statistics' desktop list had the BSDs and Solaris
  // but not these Linux distributions, targeting's Linux list the other way round, and targeting
  // called every Android device a phone, television included.
  freebsd: 'Mozilla/5.0 (X11; FreeBSD amd64; rv:120.0) Gecko/20100101 Firefox/120.0',
  openbsd: 'Mozilla/5.0 (X11; OpenBSD amd64; rv:120.0) Gecko/20100101 Firefox/120.0',
  solaris: 'Mozilla/5.0 (X11; SunOS i86pc; rv:102.0) Gecko/20100101 Firefox/102.0',
  kubuntu: 'Mozilla/5.0 (X11; U; Linux i686; en-US; rv:1.9.0.3) Gecko/2008092814 Kubuntu/8.04 (hardy) Firefox/3.0.3',
  raspbian: 'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Raspbian Chromium/78.0.3904.108 Chrome/78.0.3904.108 Safari/537.36',
  slackware: 'Mozilla/5.0 (X11; U; Slackware Linux x86_64; en-US) AppleWebKit/532.5 (KHTML, like Gecko) Chrome/4.0.249.30 Safari/532.5',
  mageia: 'Mozilla/5.0 (X11; Mageia; Linux x86_64; rv:102.0) Gecko/20100101 Firefox/102.0',
  androidTv: 'Mozilla/5.0 (Linux; Android 9; SHIELD Android TV Build/PPR1.180610.011) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100 Safari/537.36',
  // An X11 system ua-parser-js cannot name: targeting always took it for Linux, the statistics did not.
  unnamedX11: 'Mozilla/5.0 (X11; Plan9000 x86_64) Gecko/20100101 Firefox/120.0',
  smartTv: 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
  console: 'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15',
  script: 'curl/8.0',
}

type Agent = keyof typeof USER_AGENTS

describe('deviceNamesOf', () => {
  it.each([
    ['iphone', ['iphone', 'ios', 'mobile']],
    ['ipad', ['ipad', 'ios', 'tablet']],
    ['androidPhone', ['android', 'mobile']],
    ['androidTablet', ['android', 'tablet']],
    ['windows', ['windows', 'desktop']],
    ['mac', ['macos', 'desktop']],
    ['ubuntu', ['linux', 'desktop']],
    ['linux', ['linux', 'desktop']],
    ['chromebook', ['chromeos', 'desktop']],
    ['windowsPhone', ['windowsphone', 'mobile']],
    ['freebsd', ['desktop']],
    ['kubuntu', ['linux', 'desktop']],
    ['androidTv', ['android', 'smarttv']],
    ['unnamedX11', ['linux', 'desktop']],
    ['smartTv', ['smarttv']],
    ['script', []],
  ] as [Agent, string[]][])('names %s %j', (agent, names) => {
    expect(deviceNamesOf(USER_AGENTS[agent])).toEqual(names)
  })

  it('knows nothing of a missing user agent', () => {
    expect(deviceNamesOf(undefined)).toEqual([])
    expect(deviceNamesOf('')).toEqual([])
  })
})

describe('describeUserAgent', () => {
  it.each([
    ['iphone', { browser: 'Mobile Safari', os: 'iOS', device: 'mobile' }],
    ['windows', { browser: 'Chrome', os: 'Windows', device: 'desktop' }],
    ['freebsd', { browser: 'Firefox', os: 'FreeBSD', device: 'desktop' }],
    ['raspbian', { browser: 'Chromium', os: 'Raspbian', device: 'desktop' }],
    ['slackware', { browser: 'Chrome', os: 'Slackware', device: 'desktop' }],
    ['androidTv', { browser: 'Chrome', os: 'Android', device: 'smarttv' }],
    ['unnamedX11', { browser: 'Firefox', os: '', device: 'desktop' }],
    ['script', { browser: '', os: '', device: '' }],
  ] as [Agent, object][])('describes %s as %j', (agent, description) => {
    expect(describeUserAgent(USER_AGENTS[agent])).toEqual(description)
  })
})

describe('one classification for statistics and targeting', () => {
  const agents = [...Object.entries(USER_AGENTS), ...BROWSER_USER_AGENTS.map((agent, index) => [`seeded ${index}`, agent] as const)]

  it.each(agents)('%s: the counted device type is the device type targeting matches', (_name, userAgent) => {
    const { device } = describeUserAgent(userAgent)
    const types = deviceNamesOf(userAgent).filter((name) => (DEVICE_TYPES as readonly string[]).includes(name))
    expect(types).toEqual(device ? [device] : [])
  })

  it('counts as desktops exactly the visitors a desktop rule sends on, where the former lists disagreed', () => {
    const disputed: Agent[] = ['freebsd', 'openbsd', 'solaris', 'kubuntu', 'raspbian', 'slackware', 'mageia', 'unnamedX11']
    for (const agent of disputed) {
      expect(describeUserAgent(USER_AGENTS[agent]).device, agent).toBe('desktop')
      expect(deviceNamesOf(USER_AGENTS[agent]), agent).toContain('desktop')
    }
    expect(deviceNamesOf(USER_AGENTS.androidTv)).not.toContain('mobile')
  })
})

describe('preferredLanguagesOf', () => {
  it.each([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', ['fr', 'en', 'de']],
    ['en;q=0.3, de;q=0.9, es', ['es', 'de', 'en']],
    ['de;q=0, it', ['it']],
    ['pt-BR;q=0.5,ja;q=0.5', ['pt', 'ja']],
    ['not a language, 12, x', []],
    ['en;q=abc, fr', ['fr']],
    ['', []],
    // Replaced codes some browsers still send are read as today's code, so that a rule can match.
    ['iw-IL, in;q=0.5', ['he', 'id']],
    // A three-letter subtag is a language without a two-letter code: Filipino, not Finnish.
    ['fil-PH, fi;q=0.5', ['fil', 'fi']],
  ])('reads %j as %j', (header, languages) => {
    expect(preferredLanguagesOf(header)).toEqual(languages)
  })
})

describe('preferredLanguageOf', () => {
  it.each([
    ['en-US,en;q=0.9', 'en'],
    ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
    // Where the former first-entry reading differed: q order, an unwanted language, a wildcard first.
    ['en;q=0.3, de;q=0.9', 'de'],
    ['de;q=0, it', 'it'],
    ['*, fr;q=0.8', 'fr'],
    ['*', null],
    ['garbage!!', null],
    [undefined, null],
  ])('counts %j as %j', (header, language) => {
    expect(preferredLanguageOf(header)).toBe(language)
  })

  it('is the language targeting tries first', () => {
    for (const header of ['es;q=1, de;q=0.4, fr;q=0.8', 'pt-BR,pt;q=0.9', 'iw, en;q=0.1']) {
      expect(preferredLanguageOf(header)).toBe(preferredLanguagesOf(header)[0])
    }
  })
})
