// Why a single sign-on was refused (ADR 033): the reasons the callback sends the browser back to
// the sign-in page with (`/app/signin?sso_error=<reason>`), what the page says of each, and what
// the audit log records. Imports nothing: the dashboard reads the same sentences.

export const SSO_REASONS = [
  'state', 'code', 'token_signature', 'token_audience', 'token_expired', 'token_nonce', 'provider_refused',
  'unavailable', 'misconfigured', 'insecure_issuer', 'unknown_provider', 'unverified_email', 'not_allowed', 'no_workspace', 'gone',
] as const

export type SingleSignOnReason = (typeof SSO_REASONS)[number]

const TRY_AGAIN = 'Choose your identity provider again below.'

/** What the sign-in page says of each reason: what happened, and what to do. */
export const SSO_EXPLANATIONS: Readonly<Record<SingleSignOnReason, { title: string; advice: string }>> = {
  state: { title: 'This sign-in link is not valid any more', advice: `It was used already, it is older than ten minutes, or it was started in another browser. ${TRY_AGAIN}` },
  code: { title: 'Your identity provider did not accept this sign-in', advice: `The sign-in code was used already or has expired. ${TRY_AGAIN}` },
  token_signature: { title: 'The answer of your identity provider could not be verified', advice: `Its signature does not match the provider's keys. ${TRY_AGAIN} If this happens again, tell your administrator.` },
  token_audience: { title: 'The answer of your identity provider was meant for another application', advice: `Nothing was signed in. ${TRY_AGAIN} If this happens again, tell your administrator.` },
  token_expired: { title: 'The answer of your identity provider has expired', advice: `Check that your computer's clock is right. ${TRY_AGAIN}` },
  token_nonce: { title: 'The answer of your identity provider belongs to another sign-in', advice: TRY_AGAIN },
  provider_refused: { title: 'Your identity provider did not sign you in', advice: `The sign-in was cancelled or refused at the provider. ${TRY_AGAIN}` },
  unavailable: { title: 'Your identity provider does not answer right now', advice: 'Try again in a few minutes, or sign in with your password if your workspace allows it.' },
  misconfigured: { title: 'Single sign-on is not set up correctly', advice: 'The identity provider\'s settings could not be read. Tell your administrator; sign in with your password meanwhile if your workspace allows it.' },
  insecure_issuer: { title: 'Single sign-on is not set up correctly', advice: 'The identity provider is not on https. Tell your administrator.' },
  unknown_provider: { title: 'This identity provider is not known here', advice: 'Use one of the buttons below.' },
  unverified_email: { title: 'Your identity provider has not verified your e-mail address', advice: 'Linkwell links an account only by a verified address. Verify it at your identity provider, or ask your administrator to invite you.' },
  not_allowed: { title: 'You cannot sign in here with this identity yet', advice: 'Ask an owner of your workspace to invite your e-mail address, then sign in again.' },
  no_workspace: { title: 'You have no workspace here yet', advice: 'None of your groups gives you a role in a workspace. Ask an owner to invite you or to map one of your groups.' },
  gone: { title: 'Your identity provider no longer signs you in', advice: 'Ask your administrator.' },
}

/** The reason a sign-in page's address names, if it is one. */
export function ssoReasonOf(text: string | null): SingleSignOnReason | undefined {
  return (SSO_REASONS as readonly string[]).includes(text ?? '') ? (text as SingleSignOnReason) : undefined
}
