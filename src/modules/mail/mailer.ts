// The one way Linkwell sends mail: through the SMTP server of SMTP_URL (nodemailer), plain text
// only: a link and what it does, nothing a mail client could run. Invitations
// (modules/members/invitation-mail.ts) and the sign-in mails (modules/accounts/account-mail.ts)
// write their messages; this sends them.
import nodemailer from 'nodemailer'

export interface MailMessage {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  send(message: MailMessage): Promise<void>
  close(): void
}

/** A mailer over `smtpUrl` (`smtp://user:pass@host:port`, `smtps://…`), sending from `from`. */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text })
    },
    close: () => transport.close(),
  }
}
