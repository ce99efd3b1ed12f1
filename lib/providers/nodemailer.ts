/**
 * Email magic-link sign-in through nodemailer: `gatehouse/providers/nodemailer`.
 *
 *   Nodemailer({ server: process.env.EMAIL_SERVER, from: "Example <no-reply@example.com>" })
 *
 * Needs an adapter (verification tokens and users are stored).
 */
import type { EmailProviderConfig } from "./types.js"
import { normalizeEmail } from "./email/identifier.js"
import { sendVerificationRequest } from "./email/send.js"

export type NodemailerOptions = Partial<Omit<EmailProviderConfig, "type">>

/** Default link lifetime: 24 hours, in seconds. */
export const DEFAULT_EMAIL_MAX_AGE = 24 * 60 * 60

export default function Nodemailer(options: NodemailerOptions = {}): EmailProviderConfig {
  return {
    id: "nodemailer",
    name: "Email",
    maxAge: DEFAULT_EMAIL_MAX_AGE,
    sendVerificationRequest,
    normalizeIdentifier: normalizeEmail,
    ...options,
    type: "email",
  }
}

export { normalizeEmail, sendVerificationRequest }
export type { EmailProviderConfig, SendVerificationRequestParams } from "./types.js"
