/**
 * `gatehouse/providers/email`: the nodemailer provider under the id `email` (the name older
 * Auth.js apps used, so their links and sign-in URLs keep working).
 */
import Nodemailer, { type NodemailerOptions } from "./nodemailer.js"
import type { EmailProviderConfig } from "./types.js"

export default function Email(options: NodemailerOptions = {}): EmailProviderConfig {
  return Nodemailer({ id: "email", ...options })
}

export { normalizeEmail, sendVerificationRequest, DEFAULT_EMAIL_MAX_AGE } from "./nodemailer.js"
