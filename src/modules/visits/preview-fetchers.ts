// Which visitors get a link's social card instead of the redirect: the fetchers that read a page's
// Open Graph / Twitter tags to draw a link preview (chat apps, social networks, search engines).
// Any other bot (curl, an HTTP library, a monitor) is redirected as before, so scripts following a
// short link keep reaching its destination.

const PREVIEW_FETCHERS = new RegExp(
  [
    'facebookexternalhit', 'facebookcatalog', 'facebot', 'meta-externalagent', 'twitterbot', 'slackbot', 'slack-imgproxy',
    'linkedinbot', 'discordbot', 'whatsapp', 'telegrambot', 'skypeuripreview', 'microsoftpreview', 'teams',
    'pinterest', 'redditbot', 'tumblr', 'mastodon', 'bluesky', 'cardyb', 'vkshare', 'viber', 'snapchat',
    'line-poker', 'kakaotalk-scrap', 'embedly', 'iframely', 'googlebot', 'google-inspectiontool', 'bingbot',
    'bingpreview', 'applebot', 'duckduckbot', 'yandexbot', 'qwantify', 'flipboard', 'nuzzel', 'outbrain',
    'quora link preview', 'bitlybot', 'zoombot', 'mattermost', 'rocket.chat', 'signal',
  ].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
  'i',
)

/** Whether `userAgent` names a link-preview fetcher (the caller has already found it a bot). */
export function isPreviewFetcher(userAgent: string | undefined): boolean {
  return userAgent !== undefined && PREVIEW_FETCHERS.test(userAgent)
}
