// Which role each API endpoint needs (issue 20; the roles in modules/access/roles.ts), as one
// table keyed by method and route, for keys (bounded by their maker's role), sessions and the
// dashboard alike. An endpoint missing here needs `owner` (refused to everyone else), and the role
// matrix test (test/http/api-roles.test.ts) fails on it: every new route gets a rule.
import type { Role } from '../modules/access/roles.js'

/** Reads: anyone of the workspace. */
const READ: Role = 'viewer'
/** The workspace's content: links, QR codes, bio pages, campaigns, channels, pixels, splash pages, overlays. */
const CONTENT: Role = 'editor'
/** Members, invitations, API keys, branded domains, webhooks, the audit log. */
const MANAGE: Role = 'admin'
/** The account itself, its plan, and (for an administrator's workspace) the instance's administration. */
const OWN: Role = 'owner'

export const ROLE_OF_ROUTE: Readonly<Record<string, Role>> = {
  // The person's own session and password: anyone signed in.
  'POST /api/auth/logout': READ,
  'GET /api/auth/sessions': READ,
  'DELETE /api/auth/session/:id/delete': READ,
  'PUT /api/account/password': READ,
  // A person's own sign-in address (issue 38): whatever their role in the workspace.
  'POST /api/account/email': READ,
  // The person's own second factor (ADR 025); the sign-in's second step is the half-signed-in session's.
  'GET /api/auth/two-factor': READ,
  'POST /api/auth/two-factor/setup': READ,
  'POST /api/auth/two-factor/enable': READ,
  'POST /api/auth/two-factor/disable': READ,
  'POST /api/auth/two-factor/verify': READ,
  'GET /api/account': READ,
  'GET /api/account/limits': READ,
  'GET /api/account/settings': READ,
  // The spec's account fields (e-mail, password) are the workspace's.
  'PUT /api/account/update': OWN,
  // Keys are credentials of the workspace, not its content.
  'GET /api/keys': MANAGE,
  'POST /api/key/add': MANAGE,
  'DELETE /api/key/:id/delete': MANAGE,

  'GET /api/urls': READ,
  'GET /api/url/:id': READ,
  'POST /api/url/add': CONTENT,
  'POST /api/urls/bulk': CONTENT,
  // Imports write links: editors; their reports are reads.
  'POST /api/import': CONTENT,
  'GET /api/import/:id': READ,
  'GET /api/import/:id/report': READ,
  'GET /api/imports': READ,
  'PUT /api/url/:id/update': CONTENT,
  'DELETE /api/url/:id/delete': CONTENT,
  'GET /api/stats': READ,
  'GET /api/stats/live': READ,
  // Everything out again: reads.
  'GET /api/export/links': READ,
  'GET /api/export/clicks': READ,
  'GET /api/export/conversions': READ,
  // Conversion reports and lists (issue 39): reads, like statistics.
  'GET /api/conversions/funnel': READ,
  'GET /api/conversions/top': READ,
  'GET /api/conversions/leads': READ,
  'GET /api/conversions/sales': READ,
  // Recording leads and sales (issue 39): a publishable key's maker edits content.
  'POST /api/track/lead': CONTENT,
  'POST /api/track/sale': CONTENT,
  // Removing a customer's personal fields (privacy): the workspace's managers.
  'DELETE /api/customer/:id/delete': MANAGE,
  // Who changed what: the workspace's managers.
  'GET /api/audit': MANAGE,
  // Statistics of one item.
  'GET /api/url/:id/stats': READ,
  'GET /api/qr/:id/stats': READ,
  'GET /api/campaign/:id/stats': READ,
  'GET /api/bio/:id/stats': READ,
  // The last 60 minutes of the same clicks (issue 24).
  'GET /api/url/:id/stats/live': READ,
  'GET /api/qr/:id/stats/live': READ,
  'GET /api/campaign/:id/stats/live': READ,
  'GET /api/bio/:id/stats/live': READ,

  'GET /api/qr': READ,
  'GET /api/qr/:id': READ,
  'POST /api/qr/add': CONTENT,
  'PUT /api/qr/:id/update': CONTENT,
  'DELETE /api/qr/:id/delete': CONTENT,
  // Previews draw what an editor is editing.
  'POST /api/qr/preview': CONTENT,
  'POST /api/qr/:id/preview': CONTENT,
  'POST /api/upload/logo': CONTENT,

  'GET /api/bio': READ,
  'GET /api/bio/:id': READ,
  'POST /api/bio/add': CONTENT,
  'PUT /api/bio/:id/update': CONTENT,
  'DELETE /api/bio/:id/delete': CONTENT,
  'POST /api/bio/preview': CONTENT,

  'GET /api/campaigns': READ,
  'GET /api/campaign/:id': READ,
  'POST /api/campaign/add': CONTENT,
  'PUT /api/campaign/:id/update': CONTENT,
  'DELETE /api/campaign/:id/delete': CONTENT,
  'POST /api/campaign/:campaignid/assign/:linkid': CONTENT,
  'DELETE /api/campaign/:campaignid/assign/:linkid': CONTENT,

  'GET /api/channels': READ,
  'GET /api/channel/:id': READ,
  'GET /api/channel/:id/details': READ,
  'POST /api/channel/add': CONTENT,
  'PUT /api/channel/:id/update': CONTENT,
  'DELETE /api/channel/:id/delete': CONTENT,
  'POST /api/channel/:channelid/assign/:type/:itemid': CONTENT,
  'DELETE /api/channel/:channelid/assign/:type/:itemid': CONTENT,

  'GET /api/pixels': READ,
  'GET /api/pixels/providers': READ,
  'POST /api/pixel/add': CONTENT,
  'PUT /api/pixel/:id/update': CONTENT,
  'DELETE /api/pixel/:id/delete': CONTENT,

  'GET /api/splash': READ,
  'GET /api/splash/:id': READ,
  'POST /api/splash/add': CONTENT,
  'PUT /api/splash/:id/update': CONTENT,
  'DELETE /api/splash/:id/delete': CONTENT,
  'POST /api/splash/preview': CONTENT,

  'GET /api/overlay': READ,
  'GET /api/overlay/:id': READ,
  'GET /api/overlay/:id/contacts': READ,
  'POST /api/overlay/add': CONTENT,
  'PUT /api/overlay/:id/update': CONTENT,
  'DELETE /api/overlay/:id/delete': CONTENT,
  'POST /api/overlay/preview': CONTENT,

  'GET /api/domains': READ,
  'GET /api/domain/:id': READ,
  'GET /api/domains/dns': READ,
  'GET /api/domains/setup': READ,
  'POST /api/domain/add': MANAGE,
  'PUT /api/domain/:id/update': MANAGE,
  'DELETE /api/domain/:id/delete': MANAGE,
  'POST /api/domain/:id/verify': MANAGE,

  // The workspace's people.
  'GET /api/members': READ,
  'POST /api/member/invite': MANAGE,
  'PUT /api/member/:id/update': MANAGE,
  'DELETE /api/member/:id/delete': MANAGE,
  'DELETE /api/invitation/:id/delete': MANAGE,
  // The person's own workspaces: any member may make a new one (they own it) and switch.
  'GET /api/workspaces': READ,
  'POST /api/workspace/add': READ,
  'PUT /api/workspace/:id/switch': READ,
  // Requiring a second factor of everyone is the owner's, like the workspace's other settings.
  'PUT /api/workspace/two-factor': OWN,
  // Single sign-on (ADR 033): who may sign in and with which role is the owners' to decide.
  'GET /api/workspace/sso': MANAGE,
  'PUT /api/workspace/sso': OWN,
  'DELETE /api/workspace/:id/delete': OWN,

  // A split test's end and the UTM templates are content like the links they shape.
  'POST /api/url/:id/winner': CONTENT,
  'POST /api/url/:id/card': CONTENT,
  'DELETE /api/url/:id/card': CONTENT,
  'GET /api/utm-templates': READ,
  'POST /api/utm-template/add': CONTENT,
  'PUT /api/utm-template/:id/update': CONTENT,
  'DELETE /api/utm-template/:id/delete': CONTENT,
  // Tags label the workspace's content: made by its editors (on first use, by the items), read by anyone.
  'GET /api/tags': READ,
  'PUT /api/tag/:id/update': CONTENT,
  'DELETE /api/tag/:id/delete': CONTENT,

  // Webhooks send the workspace's records elsewhere, signed with a secret: set up like keys.
  'GET /api/webhooks': MANAGE,
  'GET /api/webhook/:id': MANAGE,
  'POST /api/webhook/add': MANAGE,
  'PUT /api/webhook/:id/update': MANAGE,
  'DELETE /api/webhook/:id/delete': MANAGE,
  'GET /api/webhook/:id/deliveries': MANAGE,
  'POST /api/webhook/:id/test': MANAGE,
  'POST /api/delivery/:id/retry': MANAGE,

  // The instance's administration (administrators' workspaces only: requireAdmin as well).
  'GET /api/users': OWN,
  'GET /api/user/:id': OWN,
  'GET /api/admin/people': OWN,
  'GET /api/admin/system': OWN,
  'POST /api/user/add': OWN,
  'DELETE /api/user/:id/delete': OWN,
  'PUT /api/user/:id/suspend': OWN,
  'PUT /api/user/:id/unsuspend': OWN,
  'GET /api/plans': OWN,
  'POST /api/plan/add': OWN,
  'PUT /api/plan/:id/update': OWN,
  'DELETE /api/plan/:id/delete': OWN,
  'PUT /api/plan/:id/user/:userid': OWN,
  'GET /api/admin/sso/providers': OWN,
  'POST /api/admin/sso/provider/add': OWN,
  'PUT /api/admin/sso/provider/:id/update': OWN,
  'DELETE /api/admin/sso/provider/:id/delete': OWN,
}

/**
 * Endpoints answered without a credential (signing in, opening an invitation's link): no role, no
 * workspace yet. Accepting an invitation takes a session when there is one (it adds that person).
 */
export const OPEN_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/auth/login', 'GET /api/auth/session', 'POST /api/invitation/details', 'POST /api/invitation/accept',
  // Forgotten passwords, sign-up, a new address confirmed, what the sign-in page offers (issue 38).
  'GET /api/auth/options', 'POST /api/auth/password/forgot', 'POST /api/auth/password/reset', 'POST /api/auth/signup', 'POST /api/auth/signup/confirm', 'POST /api/auth/email/confirm',
  // Stripe's signed events (ADR 034): the signature is the credential.
  'POST /api/integrations/stripe/webhook/:token',
  // Single sign-on's way there and back (ADR 033): the browser has no session yet.
  'GET /api/auth/oidc/providers', 'GET /api/auth/oidc/start', 'GET /api/auth/oidc/callback',
])

/**
 * The role a matched API route needs (`HEAD` as its `GET`); `owner` for a route the table does not
 * name, so a forgotten rule refuses rather than opens. Undefined off the API (no route matched).
 */
export function roleOfRoute(method: string, routeUrl: string | undefined): Role | undefined {
  if (!routeUrl || !routeUrl.startsWith('/api/')) return undefined
  const route = `${method === 'HEAD' ? 'GET' : method} ${routeUrl}`
  if (OPEN_ROUTES.has(route)) return undefined
  return ROLE_OF_ROUTE[route] ?? OWN
}
