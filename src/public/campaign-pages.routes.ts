// Public campaign addresses (no API key, decisions §6): GET /r/{slug}, the rotator, sends each
// visitor to the campaign's next link; GET /u/{username}/{slug}-{id} shows a public campaign's
// links as a small page.
import { Type } from 'typebox'
import type { App } from '../http/app-instance.js'
import type { CampaignPagesService } from '../modules/campaigns/campaign-pages.service.js'
import type { VisitService } from '../modules/visits/visit.service.js'
import { html, sendNotFoundPage, sendPage } from './html.js'
import { sendRedirect } from './redirect-reply.js'

const tags = ['public']

// No rules on the segments: a visitor's malformed address gets the 404 page, never a JSON 400
// (the router already caps parameters at 200 characters).
const RotatorParams = Type.Object({ slug: Type.String() })
const ListPageParams = Type.Object({ username: Type.String(), slugAndId: Type.String() })

export function registerCampaignPageRoutes(app: App, { campaignPages, visits }: { campaignPages: CampaignPagesService; visits: Pick<VisitService, 'countItem'> }): void {
  app.get('/r/:slug', {
    schema: { tags, summary: "Campaign rotator: redirects to the campaign's links in turn", security: [], params: RotatorParams },
  }, async (request, reply) => {
    // decisions §7: HEAD is answered like GET but leaves no trace (no click, no turn taken).
    const counted = request.method === 'GET'
    const turn = await campaignPages.rotate(request.params.slug, counted)
    if (!turn) return sendNotFoundPage(reply)
    const { rotation, link } = turn
    if (counted) visits.countItem(request, { accountId: rotation.accountId, itemType: 'campaign', itemId: rotation.campaignId })
    // Never cached: the next visit must take the next link.
    return sendRedirect(reply, link.target)
  })

  app.get('/u/:username/:slugAndId', {
    schema: { tags, summary: "A public campaign's list page", security: [], params: ListPageParams },
  }, async (request, reply) => {
    const page = await campaignPages.listPage(request.params.username, request.params.slugAndId)
    if (!page) return sendNotFoundPage(reply)
    const items = page.links.map((link) => html`<li><a class="button" href="${link.url}" rel="nofollow noopener">${link.label}</a></li>`)
    return sendPage(reply, {
      title: page.name,
      body: html`<h1>${page.name}</h1>${items.length ? html`<ul class="blocks">${items}</ul>` : html`<p class="muted">No links yet.</p>`}`,
    })
  })
}
