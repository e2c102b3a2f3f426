// The providers' own loader snippets for the pixel page that a link with pixels goes through,
// shortened to what fires a page view. Tags are checked per provider when stored
// (pixel-tags.ts); here they are still embedded only as escaped JavaScript string literals, so a
// tag can never close the script or inject code. Each provider lists the hosts its script comes
// from and reports to, which become the page's Content-Security-Policy.

import type { PixelType } from '../modules/pixels/pixel-tags.js'

export interface PixelSnippet {
  /** Inline script (runs under the page's nonce). */
  script: string
  /** Hosts the snippet loads scripts from (script-src). */
  scriptHosts: readonly string[]
  /** Hosts the providers' scripts send beacons to (connect-src; images are allowed anyway). */
  connectHosts: readonly string[]
}

/** A JavaScript string literal safe inside an HTML <script> element. */
export function jsString(value: string): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

const GOOGLE_TAG_HOSTS = ['https://www.googletagmanager.com']
const GOOGLE_BEACON_HOSTS = ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com']
const GOOGLE_ADS_HOSTS = ['https://www.googleadservices.com', 'https://googleads.g.doubleclick.net', 'https://www.google.com']

function gtag(id: string, command: string): string {
  return `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());${command}` +
    `var s=document.createElement('script');s.async=true;s.src='https://www.googletagmanager.com/gtag/js?id='+encodeURIComponent(${jsString(id)});document.head.appendChild(s);`
}

type SnippetBuilder = (tag: string) => PixelSnippet

// Every provider a pixel may be stored for has its snippet (the type checks it).
const SNIPPETS: Record<PixelType, SnippetBuilder> = {
  gtmpixel: (tag) => ({
    script: `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(i);f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer',${jsString(tag)});`,
    scriptHosts: GOOGLE_TAG_HOSTS,
    connectHosts: GOOGLE_BEACON_HOSTS,
  }),
  gapixel: (tag) => ({
    script: gtag(tag, `gtag('config',${jsString(tag)});`),
    scriptHosts: GOOGLE_TAG_HOSTS,
    connectHosts: GOOGLE_BEACON_HOSTS,
  }),
  adwordspixel: (tag) => {
    // `AW-123456789/label`: the account loads gtag, the label names the conversion.
    const account = tag.split('/')[0] ?? tag
    const conversion = tag.includes('/') ? `gtag('event','conversion',{send_to:${jsString(tag)}});` : ''
    return {
      script: gtag(account, `gtag('config',${jsString(account)});${conversion}`),
      scriptHosts: [...GOOGLE_TAG_HOSTS, 'https://www.googleadservices.com', 'https://googleads.g.doubleclick.net'],
      connectHosts: [...GOOGLE_BEACON_HOSTS, ...GOOGLE_ADS_HOSTS],
    }
  },
  fbpixel: (tag) => ({
    script: `!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${jsString(tag)});fbq('track','PageView');`,
    scriptHosts: ['https://connect.facebook.net'],
    connectHosts: ['https://www.facebook.com', 'https://connect.facebook.net'],
  }),
  linkedinpixel: (tag) => ({
    script: `window._linkedin_data_partner_ids=window._linkedin_data_partner_ids||[];window._linkedin_data_partner_ids.push(${jsString(tag)});(function(l){if(!l){window.lintrk=function(a,b){window.lintrk.q.push([a,b])};window.lintrk.q=[]}var s=document.getElementsByTagName('script')[0];var b=document.createElement('script');b.type='text/javascript';b.async=true;b.src='https://snap.licdn.com/li.lms-analytics/insight.min.js';s.parentNode.insertBefore(b,s);})(window.lintrk);`,
    scriptHosts: ['https://snap.licdn.com'],
    connectHosts: ['https://px.ads.linkedin.com'],
  }),
  twitterpixel: (tag) => ({
    script: `!function(e,t,n,s,u,a){e.twq||(s=e.twq=function(){s.exe?s.exe.apply(s,arguments):s.queue.push(arguments)},s.version='1.1',s.queue=[],u=t.createElement(n),u.async=!0,u.src='https://static.ads-twitter.com/uwt.js',a=t.getElementsByTagName(n)[0],a.parentNode.insertBefore(u,a))}(window,document,'script');twq('config',${jsString(tag)});`,
    scriptHosts: ['https://static.ads-twitter.com'],
    connectHosts: ['https://analytics.twitter.com', 'https://t.co', 'https://ads-twitter.com', 'https://ads-api.twitter.com'],
  }),
  tiktok: (tag) => ({
    script: `!function(w,d,t){w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=['page','track','identify','instances','debug','on','off','once','ready','alias','group','enableCookie','disableCookie'];ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e};ttq.load=function(e,n){var i='https://analytics.tiktok.com/i18n/pixel/events.js';ttq._i=ttq._i||{};ttq._i[e]=[];ttq._i[e]._u=i;ttq._t=ttq._t||{};ttq._t[e]=+new Date;ttq._o=ttq._o||{};ttq._o[e]=n||{};var o=d.createElement('script');o.type='text/javascript';o.async=!0;o.src=i+'?sdkid='+encodeURIComponent(e)+'&lib='+t;var a=d.getElementsByTagName('script')[0];a.parentNode.insertBefore(o,a)};ttq.load(${jsString(tag)});ttq.page();}(window,document,'ttq');`,
    scriptHosts: ['https://analytics.tiktok.com'],
    connectHosts: ['https://analytics.tiktok.com'],
  }),
  pinterest: (tag) => ({
    script: `!function(e){if(!window.pintrk){window.pintrk=function(){window.pintrk.queue.push(Array.prototype.slice.call(arguments))};var n=window.pintrk;n.queue=[],n.version='3.0';var t=document.createElement('script');t.async=!0,t.src=e;var r=document.getElementsByTagName('script')[0];r.parentNode.insertBefore(t,r)}}('https://s.pinimg.com/ct/core.js');pintrk('load',${jsString(tag)});pintrk('page');`,
    scriptHosts: ['https://s.pinimg.com'],
    connectHosts: ['https://ct.pinterest.com'],
  }),
  reddit: (tag) => ({
    script: `!function(w,d){if(!w.rdt){var p=w.rdt=function(){p.sendEvent?p.sendEvent.apply(p,arguments):p.callQueue.push(arguments)};p.callQueue=[];var t=d.createElement('script');t.src='https://www.redditstatic.com/ads/pixel.js',t.async=!0;var s=d.getElementsByTagName('script')[0];s.parentNode.insertBefore(t,s)}}(window,document);rdt('init',${jsString(tag)});rdt('track','PageVisit');`,
    scriptHosts: ['https://www.redditstatic.com'],
    connectHosts: ['https://alb.reddit.com', 'https://pixel-config.reddit.com'],
  }),
  snapchat: (tag) => ({
    script: `(function(e,t,n){if(e.snaptr)return;var a=e.snaptr=function(){a.handleRequest?a.handleRequest.apply(a,arguments):a.queue.push(arguments)};a.queue=[];var s='script';var r=t.createElement(s);r.async=!0;r.src=n;var u=t.getElementsByTagName(s)[0];u.parentNode.insertBefore(r,u);})(window,document,'https://sc-static.net/scevent.min.js');snaptr('init',${jsString(tag)},{});snaptr('track','PAGE_VIEW');`,
    scriptHosts: ['https://sc-static.net'],
    connectHosts: ['https://tr.snapchat.com'],
  }),
  bing: (tag) => ({
    script: `(function(w,d,t,r,u){var f,n,i;w[u]=w[u]||[],f=function(){var o={ti:${jsString(tag)},enableAutoSpaTracking:true};o.q=w[u],w[u]=new UET(o),w[u].push('pageLoad')},n=d.createElement(t),n.src=r,n.async=1,n.onload=n.onreadystatechange=function(){var s=this.readyState;s&&s!=='loaded'&&s!=='complete'||(f(),n.onload=n.onreadystatechange=null)},i=d.getElementsByTagName(t)[0],i.parentNode.insertBefore(n,i)})(window,document,'script','https://bat.bing.com/bat.js','uetq');`,
    scriptHosts: ['https://bat.bing.com'],
    connectHosts: ['https://bat.bing.com'],
  }),
  quorapixel: (tag) => ({
    script: `!function(q,e,v,n,t,s){if(q.qp)return;n=q.qp=function(){n.qp?n.qp.apply(n,arguments):n.queue.push(arguments)};n.queue=[];t=document.createElement(e);t.async=!0;t.src=v;s=document.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,'script','https://a.quora.com/qevents.js');qp('init',${jsString(tag)});qp('track','ViewContent');`,
    scriptHosts: ['https://a.quora.com'],
    connectHosts: ['https://q.quora.com'],
  }),
  adrollpixel: (tag) => ({
    script: `window.adroll_adv_id=${jsString(tag)};window.adroll_version='2.0';(function(w,d){var s=d.createElement('script');s.async=true;s.src='https://s.adroll.com/j/'+encodeURIComponent(w.adroll_adv_id)+'/roundtrip.js';var f=d.getElementsByTagName('script')[0];f.parentNode.insertBefore(s,f)})(window,document);`,
    scriptHosts: ['https://s.adroll.com'],
    connectHosts: ['https://d.adroll.com'],
  }),
}

/** The snippet of one pixel, or null for a type this server does not know. */
export function pixelSnippetOf(type: PixelType, tag: string): PixelSnippet {
  return SNIPPETS[type](tag)
}
