/**
 * A real SMTP server for the tests (`smtp-server` on 127.0.0.1) that keeps every message it
 * receives: the envelope (who the server was asked to deliver to) and the parsed mail, so a test
 * can read the link the way a user would.
 */
import type { AddressInfo } from "node:net"
import PostalMime, { type Email } from "postal-mime"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"

export interface ReceivedMail {
  envelope: { from: string; to: string[] }
  raw: string
  mail: Email
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` */
  url: string
  port: number
  messages: ReceivedMail[]
  /** Waits until `count` messages have arrived (or fails after ~5 s). */
  waitFor(count?: number): Promise<ReceivedMail[]>
  close(): Promise<void>
}

export interface SinkOptions {
  /** Answer RCPT TO with this SMTP error (e.g. 550) instead of accepting. */
  rejectRecipient?: number
  server?: Partial<SMTPServerOptions>
}

export async function startSmtp(options: SinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = []
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient) {
        const error = new Error("Recipient refused") as Error & { responseCode?: number }
        error.responseCode = options.rejectRecipient
        callback(error)
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8")
        PostalMime.parse(raw)
          .then((mail) => {
            messages.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
                to: session.envelope.rcptTo.map((recipient) => recipient.address),
              },
              raw,
              mail,
            })
            callback()
          })
          .catch(callback)
      })
    },
    ...options.server,
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    async waitFor(count = 1) {
      for (let i = 0; i < 100 && messages.length < count; i++) await new Promise((resume) => setTimeout(resume, 50))
      if (messages.length < count) throw new Error(`expected ${count} mail(s), got ${messages.length}`)
      return messages
    },
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  }
}

/** The sign-in link in a mail's plain-text part. */
export function linkIn(received: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(received.mail.text ?? "")
  if (!match) throw new Error("no link in the mail")
  return new URL(match[0])
}
