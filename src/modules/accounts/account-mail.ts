// The mails of signing in (issue 38): a password reset's link, a sign-up's confirmation (or, for
// an address that already has an account, the way to its password), an e-mail change's
// confirmation to the new address and the notice to the old one. Plain text, sent through the
// instance's mailer (modules/mail); links carry their token in the fragment, which no server logs.
import type { MailMessage } from '../mail/mailer.js'

/** Sends one mail; absent where the instance has no mail server (SMTP_URL). */
export type SendMail = (message: MailMessage) => Promise<void>

const IGNORE = 'If you did not ask for this, ignore this message: nothing changes.'

export function resetPasswordMail(to: string, url: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Reset your Linkwell password',
    text: [
      'Someone (we hope you) asked to reset the password of your Linkwell account.',
      '',
      `Choose a new password: ${url}`,
      '',
      `The link works once, for ${minutes} minutes. Setting a new password signs you out everywhere.`,
      IGNORE,
    ].join('\n'),
  }
}

export function confirmSignUpMail(to: string, url: string, hours: number): MailMessage {
  return {
    to,
    subject: 'Confirm your e-mail address for Linkwell',
    text: [
      'Welcome to Linkwell. Confirm this address to finish making your account:',
      '',
      url,
      '',
      `The link works once, for ${hours} hours.`,
      IGNORE,
    ].join('\n'),
  }
}

/** A sign-up for an address that already signs in: they are pointed to their password, nothing is made. */
export function alreadyRegisteredMail(to: string, forgotUrl: string): MailMessage {
  return {
    to,
    subject: 'You already have a Linkwell account',
    text: [
      'Someone (we hope you) tried to sign up to Linkwell with this address, which already has an account.',
      '',
      `Sign in with it, or reset your password here: ${forgotUrl}`,
      '',
      IGNORE,
    ].join('\n'),
  }
}

/** A sign-up whose chosen username someone else has: the address is free, the name is not. */
export function usernameTakenMail(to: string, username: string, signUpUrl: string): MailMessage {
  return {
    to,
    subject: 'Choose another username for Linkwell',
    text: [
      `Someone (we hope you) tried to sign up to Linkwell with this address and the username "${username}", which is taken.`,
      '',
      `Sign up again with another username, or leave it empty and we make one from your address: ${signUpUrl}`,
      '',
      IGNORE,
    ].join('\n'),
  }
}

export function confirmEmailChangeMail(to: string, url: string, hours: number): MailMessage {
  return {
    to,
    subject: 'Confirm your new e-mail address for Linkwell',
    text: [
      'You asked to sign in to Linkwell with this address from now on. Confirm it:',
      '',
      url,
      '',
      `The link works once, for ${hours} hours. Until it is used, your old address stays the one you sign in with.`,
      IGNORE,
    ].join('\n'),
  }
}

/** Told to the old address once the change is made, so that a change nobody asked for is noticed. */
export function emailChangedNoticeMail(to: string, newEmail: string, forgotUrl: string): MailMessage {
  return {
    to,
    subject: 'Your Linkwell sign-in address was changed',
    text: [
      `The e-mail address you sign in to Linkwell with was changed to ${newEmail}.`,
      '',
      `If that was not you, reset your password at once (${forgotUrl}) and tell your administrator.`,
    ].join('\n'),
  }
}
