// Invitations by e-mail, through the SMTP server of SMTP_URL (nodemailer). Plain text: a link and
// what it offers, nothing a mail client could run.
import nodemailer from 'nodemailer'
import type { InvitationSender } from './invitation.service.js'

/** A sender over `smtpUrl` (`smtp://user:pass@host:port`, `smtps://…`), mails from `from`. */
export function createInvitationMailer(smtpUrl: string, from: string): InvitationSender & { close(): void } {
  const transport = nodemailer.createTransport(smtpUrl)
  const send: InvitationSender = async ({ to, workspace, role, url, expires }) => {
    await transport.sendMail({
      from,
      to,
      subject: `You are invited to the workspace ${workspace} on Linkwell`,
      text: [
        `You are invited to join the workspace ${workspace} on Linkwell as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
        '',
        `Accept the invitation: ${url}`,
        '',
        `The link works once, until ${expires} UTC. If you did not expect it, ignore this message.`,
      ].join('\n'),
    })
  }
  return Object.assign(send, { close: () => transport.close() })
}
