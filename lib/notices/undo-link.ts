/**
 * The undo link of an email change: mailed to the old address, it gives the account that address
 * back. Stored like the password links (lib/password/links.ts), as a verification token: the
 * identifier names the user (not readable), the stored token is a keyed hash of the raw one (only
 * in the mail) and the old address, so a link gives back only the address it was sent to. Single
 * use (the adapter's use is atomic), expiring after `notices.undoWindow`, and gone with the user.
 */
import { MissingAdapterMethods } from "../errors.js"
import { sha256Hex } from "../crypto/hash.js"
import { randomHex } from "../crypto/random.js"
import type { ResolvedConfig } from "../core/config/resolved.js"

const identifierOf = (userId: string) => `email-undo:${sha256Hex(userId).slice(0, 40)}`
const storedToken = (token: string, secret: string, oldEmail: string) => sha256Hex(`${token}${secret}\n${oldEmail}`)

function tokenMethods(config: ResolvedConfig) {
  const adapter = config.adapter
  if (!adapter?.createVerificationToken || !adapter.useVerificationToken) {
    throw new MissingAdapterMethods("The undo link of an email change needs an adapter with createVerificationToken and useVerificationToken")
  }
  return { create: adapter.createVerificationToken.bind(adapter), use: adapter.useVerificationToken.bind(adapter) }
}

/** A new undo token for giving `userId` the address `oldEmail` back: the raw token, stored hashed. */
export async function issueUndoToken(config: ResolvedConfig, userId: string, oldEmail: string): Promise<{ token: string; expires: Date }> {
  const token = randomHex(32)
  const expires = new Date(Date.now() + config.notices.undoWindow * 1000)
  await tokenMethods(config).create({ identifier: identifierOf(userId), token: storedToken(token, config.csrfSecret, oldEmail), expires })
  return { token, expires }
}

/** Uses the undo token once: true when it existed for this user and address and had not expired. */
export async function consumeUndoToken(config: ResolvedConfig, userId: string, oldEmail: string, token: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(token) || !userId || userId.length > 200 || !oldEmail || oldEmail.length > 320) return false
  const { use } = tokenMethods(config)
  // The secret may have rotated since the mail was sent: each secret of the list, newest first.
  for (const secret of new Set([config.csrfSecret, ...config.csrfSecrets])) {
    const found = await use({ identifier: identifierOf(userId), token: storedToken(token, secret, oldEmail) })
    if (found) return found.expires.getTime() > Date.now()
  }
  return false
}

/** Ends every undo link of `userId` (the account is deleted); nothing to do without the adapter method. */
export async function endUndoTokens(config: ResolvedConfig, userId: string): Promise<void> {
  const remove = config.adapter?.deleteVerificationTokens
  if (remove) await remove.call(config.adapter, identifierOf(userId))
}
