// A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives, for the
// tests of mailed links and invitations: point SMTP_URL at `url`, then wait for a mail with `mailTo`.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { eventually } from './eventually.js'

export interface ReceivedMail {
  to: string
  /** The message as sent (headers and body), quoted-printable soft breaks undone. */
  body: string
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`. */
  url: string
  received: ReceivedMail[]
  /** The mails received for `to` so far. */
  mailsTo(to: string): ReceivedMail[]
  /** Waits for the `count`-th mail to `to` (1: the first) and answers it. */
  mailTo(to: string, count?: number): Promise<ReceivedMail>
  close(): Promise<void>
}

/** Undoes quoted-printable's folding and its `=3D`, so that links read back whole. */
function unfold(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(','), body: unfold(Buffer.concat(chunks).toString('utf8')) })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  const mailsTo = (to: string) => received.filter((mail) => mail.to === to)
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailsTo,
    async mailTo(to, count = 1) {
      const mails = await eventually(() => mailsTo(to), (found) => found.length >= count)
      return mails[count - 1]!
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The token of the first `{page}#token=…` link in a mail. */
export function linkTokenOf(mail: ReceivedMail, page: string): string {
  const match = new RegExp(`/app/${page}#token=([A-Za-z0-9_-]+)`).exec(mail.body)
  if (!match) throw new Error(`no ${page} link in the mail to ${mail.to}:\n${mail.body}`)
  return match[1]!
}
