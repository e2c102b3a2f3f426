// GET /lw.js (issue 39, ADR 034): the first-party script a destination site loads to keep the click
// id its visitor arrived with. It reads the id from the page's URL (the parameter `data-param`
// names, `lw_id` by default), keeps it in a first-party cookie for the attribution window
// (`data-days`, 90 by default), and exposes it as `linkwell.clickId()` for the site to send with
// its lead. No dependency, no request of its own, under 2 kB.
import type { App } from '../http/app-instance.js'

/** The script, as served (kept small by hand: test/public/tracking-script.test.ts checks its size and its work). */
export const TRACKING_SCRIPT = `/* Linkwell click id keeper: linkwell.clickId() */
(function (w, d) {
  var s = d.currentScript, a = function (n, f) { return (s && s.getAttribute(n)) || f }
  var param = a('data-param', 'lw_id'), days = +a('data-days', '90') || 90, name = 'lw_click_id', shape = /^[0-9a-f]{32}$/
  try {
    var id = new URLSearchParams(w.location.search).get(param)
    if (id && shape.test(id)) d.cookie = name + '=' + id + '; Max-Age=' + days * 86400 + '; Path=/; SameSite=Lax' + (w.location.protocol === 'https:' ? '; Secure' : '')
  } catch (e) {}
  w.linkwell = {
    clickId: function () {
      var m = d.cookie.match(/(?:^|; )lw_click_id=([0-9a-f]{32})/)
      return m ? m[1] : null
    }
  }
})(window, document)
`

export function registerTrackingScriptRoute(app: App): void {
  app.get('/lw.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      // Any site may load it; an hour keeps a fix reaching sites within the day.
      .header('cache-control', 'public, max-age=3600')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(TRACKING_SCRIPT))
}
