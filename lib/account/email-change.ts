/**
 * Changing the signed-in user's email address (issue #15): a confirmation link goes to the new
 * address (through the email provider, its mail worded for the change), and only the same user,
 * signed in, can use it; the old address keeps working until then. The answer is the same whether
 * or not another user has the new address (no mail is sent then): the page says nothing about who
 * holds which address. The stored token is hashed, single use and expiring, like a magic link's.
 */
import { announce } from "../devices/runtime.js"
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../core/context.js"
import { fireEvent } from "../core/events.js"
import { sha256Hex } from "../crypto/hash.js"
import { EmailSignInError, InvalidRequest, Verification } from "../errors.js"
import { emailIdentifier } from "../providers/email/identifier.js"
import { canonicalMailbox } from "../providers/email/mailbox.js"
import { candidateHashes, hashToken, newToken } from "../providers/email/token.js"
import type { EmailProviderConfig } from "../providers/types.js"
import { enforceRateLimit } from "../rate-limit/limiter.js"
import { accountAdapter, type AccountHolder } from "./user.js"
import { audit } from "../audit/emit.js"
import { traceMail } from "../telemetry/mail.js"
import { sendSecurityNotice } from "../notices/send.js"

const DAY = 24 * 60 * 60

/** The token's identifier: bound to the user and the new address, revealing neither. */
const changeIdentifier = (userId: string, email: string) => `email-change:${sha256Hex(`${userId}\n${email}`).slice(0, 40)}`

export function emailProviderOf(ctx: RequestContext): EmailProviderConfig | undefined {
  return ctx.config.providers.list.find((provider): provider is EmailProviderConfig => provider.type === "email")
}

function requireEmailProvider(ctx: RequestContext): EmailProviderConfig {
  const provider = emailProviderOf(ctx)
  if (!provider) throw new InvalidRequest("Changing the email address needs an email provider to send the confirmation link")
  return provider
}

export async function requestEmailChange(ctx: RequestContext, holder: AccountHolder, input: unknown): Promise<void> {
  const provider = requireEmailProvider(ctx)
  if (typeof input !== "string") throw new EmailSignInError("No single email address was posted")
  const email = emailIdentifier(provider, input)
  await enforceRateLimit(ctx.config, "email", ctx.request.clientAddress, canonicalMailbox(email))
  const adapter = accountAdapter(ctx.config)
  if (email === holder.user.email || (await adapter.getUserByEmail(email))) return
  const token = await newToken(provider)
  const hashed = hashToken(token, provider, ctx.config)
  const identifier = changeIdentifier(holder.user.id, email)
  const expires = new Date(Date.now() + (provider.maxAge ?? DAY) * 1000)
  await adapter.createVerificationToken({ identifier, token: hashed, expires })
  const url = `${ctx.baseUrl}/account/confirm-email?${new URLSearchParams({ token, email })}`
  try {
    const send = provider.sendVerificationRequest
    if (!send) throw new Error("the provider has no sendVerificationRequest")
    await traceMail(ctx.config, provider.id, email, async () => send({ identifier: email, url, expires, provider, token, theme: ctx.config.theme, request: ctx.request.webRequest(), purpose: "changeEmail" }))
  } catch (error) {
    await Promise.resolve(adapter.useVerificationToken({ identifier, token: hashed })).catch(() => undefined)
    throw new EmailSignInError("The confirmation email could not be sent", { cause: { err: error } })
  }
}

/** Uses the link: the address becomes the user's (proven), and the email sign-in account follows it. */
export async function confirmEmailChange(ctx: RequestContext, holder: AccountHolder, token: unknown, email: unknown): Promise<AdapterUser> {
  const provider = requireEmailProvider(ctx)
  if (typeof token !== "string" || !token || typeof email !== "string") throw new Verification("The confirmation link is incomplete")
  let address: string
  try {
    address = emailIdentifier(provider, email)
  } catch (error) {
    throw new Verification("The confirmation link names an invalid address", { cause: { err: error } })
  }
  const adapter = accountAdapter(ctx.config)
  const identifier = changeIdentifier(holder.user.id, address)
  let used = null
  for (const hashed of candidateHashes(token, provider, ctx.config)) {
    used = await adapter.useVerificationToken({ identifier, token: hashed })
    if (used) break
  }
  if (!used || used.expires.getTime() <= Date.now()) throw new Verification("The confirmation link was used already, has expired, or is another user's")
  if (await adapter.getUserByEmail(address)) throw new Verification("Another user has this address now")
  const previous = holder.user.email
  const user = await adapter.updateUser({ id: holder.user.id, email: address, emailVerified: new Date() })
  for (const account of await adapter.listAccountsByUserId(user.id)) {
    if (account.type !== "email" || account.providerAccountId !== previous) continue
    await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    await adapter.linkAccount({ ...account, providerAccountId: address })
  }
  // Database sessions cached on any process show the user as read then: drop them (pub/sub).
  await announce(ctx.config, { user: user.id, notBefore: 0 })
  await fireEvent(ctx.config, "updateUser", { user })
  audit(ctx.config, { type: "email.changed", userId: user.id, provider: provider.id })
  // To the old address, with the undo link (issue #24).
  if (previous) sendSecurityNotice(ctx, { id: user.id, email: previous }, "emailChanged", { detail: address })
  return user
}
