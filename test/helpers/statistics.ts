// The statistics object of an item nobody has visited yet (spec: QR statistics object).

export const NO_SOCIAL = { facebook: 0, twitter: 0, instagram: 0, linkedin: 0 }

export const EMPTY_STATISTICS = {
  clicks: 0,
  uniqueClicks: 0,
  topCountries: {},
  topReferrers: {},
  topBrowsers: {},
  topOs: {},
  socialCount: NO_SOCIAL,
}
