// Invitations by e-mail: the message, sent through the instance's mailer (modules/mail).
import type { Mailer } from '../mail/mailer.js'
import type { InvitationSender } from './invitation.service.js'

/** A sender of invitations over `mailer`. */
export function createInvitationMailer(mailer: Pick<Mailer, 'send'>): InvitationSender {
  return async ({ to, workspace, role, url, expires }) => {
    await mailer.send({
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
}
