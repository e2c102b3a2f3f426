// The pages a browser meets when a single sign-on is refused (ADR 033): what happened and what to
// do, with a way back to the sign-in page. No detail of the provider's answer is shown.
import type { FastifyReply } from 'fastify'
import type { SingleSignOnReason } from './sso-errors.js'

interface Explanation {
  status: number
  title: string
  advice: string
}

const TRY_AGAIN = 'Go back to the sign-in page and choose your identity provider again.'

export const EXPLANATIONS: Readonly<Record<SingleSignOnReason, Explanation>> = {
  state: { status: 400, title: 'This sign-in link is not valid any more', advice: `It was used already, it is older than ten minutes, or it was started in another browser. ${TRY_AGAIN}` },
  code: { status: 400, title: 'Your identity provider did not accept this sign-in', advice: `The sign-in code was used already or has expired. ${TRY_AGAIN}` },
  token_signature: { status: 400, title: 'The answer of your identity provider could not be verified', advice: `Its signature does not match the provider's keys. ${TRY_AGAIN} If this happens again, tell your administrator.` },
  token_audience: { status: 400, title: 'The answer of your identity provider was meant for another application', advice: `Nothing was signed in. ${TRY_AGAIN} If this happens again, tell your administrator.` },
  token_expired: { status: 400, title: 'The answer of your identity provider has expired', advice: `Check that your computer's clock is right. ${TRY_AGAIN}` },
  token_nonce: { status: 400, title: 'The answer of your identity provider belongs to another sign-in', advice: TRY_AGAIN },
  provider_refused: { status: 400, title: 'Your identity provider did not sign you in', advice: `The sign-in was cancelled or refused at the provider. ${TRY_AGAIN}` },
  unavailable: { status: 503, title: 'Your identity provider does not answer right now', advice: 'Try again in a few minutes, or sign in with your password if your workspace allows it.' },
  misconfigured: { status: 400, title: 'Single sign-on is not set up correctly', advice: 'The identity provider\'s settings could not be read. Tell your administrator; sign in with your password meanwhile if your workspace allows it.' },
  insecure_issuer: { status: 400, title: 'Single sign-on is not set up correctly', advice: 'The identity provider is not on https. Tell your administrator.' },
  unknown_provider: { status: 404, title: 'This identity provider is not known here', advice: 'Go back to the sign-in page and use one of the buttons it shows.' },
  unverified_email: { status: 403, title: 'Your identity provider has not verified your e-mail address', advice: 'Linkwell links an account only by a verified address. Verify it at your identity provider, or ask your administrator to invite you.' },
  not_allowed: { status: 403, title: 'You cannot sign in here with this identity yet', advice: 'Ask an owner of your workspace to invite your e-mail address, then sign in again.' },
  no_workspace: { status: 403, title: 'You have no workspace here yet', advice: 'None of your groups gives you a role in a workspace. Ask an owner to invite you or to map one of your groups.' },
  gone: { status: 403, title: 'Your identity provider no longer signs you in', advice: 'Ask your administrator.' },
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** Answers the page that explains `reason`, with a link back to the sign-in page. */
export function sendRefusalPage(reply: FastifyReply, reason: SingleSignOnReason, signInUrl: string): FastifyReply {
  const { status, title, advice } = EXPLANATIONS[reason]
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Linkwell</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7f9;color:#1c2330}main{max-width:32rem;margin:1rem;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}h1{font-size:1.3rem;margin-top:0}a{color:#1d4ed8}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(advice)}</p><p><a href="${escapeHtml(signInUrl)}">Back to the sign-in page</a></p><p><small>Reason: ${escapeHtml(reason)}</small></p></main></body>
</html>`
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    // The API's policy allows nothing; this page has its own inline style and nothing else.
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
    .send(html)
}
