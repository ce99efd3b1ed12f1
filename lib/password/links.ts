/**
 * The links of password accounts, stored as verification tokens (the adapter's
 * `createVerificationToken` / `useVerificationToken`, so any Auth.js-style adapter holds them):
 * identifier `password-<kind>:<userId>`, token the keyed hash of the raw token (the raw token is
 * only in the mail). Single use (the adapter's use is atomic) and expiring. Resetting or changing
 * the password ends every reset link still out for the user (`endLinks`, the adapter's
 * `deleteVerificationTokens`): a link asked for earlier, or sent to a mailbox someone else reads,
 * is no way in afterwards (issue #24).
 */
import { MissingAdapterMethods } from "../errors.js"
import { sha256Hex } from "../crypto/hash.js"
import { randomHex } from "../crypto/random.js"
import type { ResolvedConfig } from "../core/config/resolved.js"

export type LinkKind = "verify" | "reset"

const identifierOf = (kind: LinkKind, userId: string) => `password-${kind}:${userId}`

function tokenMethods(config: ResolvedConfig) {
  const adapter = config.adapter
  if (!adapter?.createVerificationToken || !adapter.useVerificationToken) {
    throw new MissingAdapterMethods("Password accounts need an adapter with createVerificationToken and useVerificationToken")
  }
  return { create: adapter.createVerificationToken.bind(adapter), use: adapter.useVerificationToken.bind(adapter) }
}

/** A new link token for the user: the raw token, stored hashed, valid `maxAge` seconds. */
export async function issueLink(config: ResolvedConfig, kind: LinkKind, userId: string, maxAge: number): Promise<{ token: string; expires: Date }> {
  const token = randomHex(32)
  const expires = new Date(Date.now() + maxAge * 1000)
  await tokenMethods(config).create({ identifier: identifierOf(kind, userId), token: sha256Hex(`${token}${config.csrfSecret}`), expires })
  return { token, expires }
}

/** Uses the link token once: true when it existed and had not expired (either way it is gone). */
export async function consumeLink(config: ResolvedConfig, kind: LinkKind, userId: string, token: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(token) || !userId || userId.length > 200) return false
  const { use } = tokenMethods(config)
  // The secret may have rotated since the mail was sent: each secret of the list, newest first.
  for (const secret of new Set([config.csrfSecret, ...config.csrfSecrets])) {
    const found = await use({ identifier: identifierOf(kind, userId), token: sha256Hex(`${token}${secret}`) })
    if (found) return found.expires.getTime() > Date.now()
  }
  return false
}

/** Ends every outstanding link of `kind` of the user (however many were asked for). */
export async function endLinks(config: ResolvedConfig, kind: LinkKind, userId: string): Promise<void> {
  const remove = config.adapter?.deleteVerificationTokens
  if (!remove) throw new MissingAdapterMethods("Password accounts need an adapter with deleteVerificationTokens (ending a user's reset links)")
  await remove.call(config.adapter, identifierOf(kind, userId))
}
