/**
 * `GET webauthn-options/<passkey provider>?action=authenticate|register`: the options for the
 * browser's passkey ceremony, `{ action, options }`, and the challenge in its cookie.
 *
 * - `action=authenticate`: a sign-in with any passkey of this site (discoverable credentials;
 *   no credential ids are revealed).
 * - signed in (and no `action=authenticate`): register another passkey for that user.
 * - otherwise `getUserInfo` decides: an existing user authenticates, a new one registers. A
 *   registration for a user who exists, without being signed in as them, is refused: a passkey is
 *   never attached to someone else's account. With an email provider, a new user's registration
 *   is refused too (`EmailProofRequired`): the address is proved first (lib/linking/passkey-sign-up.ts).
 */
import { randomUUID } from "node:crypto"
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server"
import { InvalidRequest, WebAuthnVerificationError } from "../errors.js"
import type { Adapter } from "../adapters.js"
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { queryParam } from "../core/request.js"
import { json } from "../core/response.js"
import type { Provider, WebAuthnProviderConfig } from "../providers/types.js"
import { challengeCookie } from "../providers/webauthn/challenge.js"
import { relyingParty } from "../providers/webauthn/relying-party.js"
import { defaultGetUserInfo } from "../providers/webauthn/user-info.js"
import { signedIn } from "../session/signed-in.js"
import { assertRecentSignIn } from "../session/assurance.js"
import { enforceRateLimit } from "../rate-limit/limiter.js"
import { assertPasskeySignUpAllowed } from "../linking/passkey-sign-up.js"

type Ceremony = { action: "authenticate" } | { action: "register"; user: { id: string; email?: string | null; name?: string | null }; startedBy?: string }

async function decide(ctx: RequestContext, provider: WebAuthnProviderConfig): Promise<Ceremony> {
  const requested = queryParam(ctx.request, "action")
  if (requested !== undefined && requested !== "authenticate" && requested !== "register") {
    throw new InvalidRequest('action must be "authenticate" or "register"')
  }
  if (requested === "authenticate") return { action: "authenticate" }
  // Signed in: another passkey for that user, a new way in, so only from a recent sign-in (issue #24).
  const who = await signedIn(ctx)
  if (who?.user) {
    await assertRecentSignIn(ctx.config, who, "Adding a passkey")
    const current = who.user
    return { action: "register", user: { id: current.id, email: current.email, name: current.name }, startedBy: current.id }
  }
  const adapter = ctx.config.adapter as Adapter
  const info = await (provider.getUserInfo ?? defaultGetUserInfo)({ provider, request: ctx.request.webRequest(), adapter })
  if (requested === "register") {
    if (!info) throw new WebAuthnVerificationError("A passkey registration needs the new user's details (e.g. an email)")
    if (info.exists) throw new WebAuthnVerificationError("Sign in first to add a passkey to an existing account")
  }
  if (!info || info.exists) return { action: "authenticate" }
  // A new address: with an email provider, proved first (the magic link, then passkey-setup).
  assertPasskeySignUpAllowed(ctx)
  return { action: "register", user: { id: info.user.id ?? randomUUID(), email: info.user.email ?? null, name: info.user.name ?? null } }
}

async function registrationOptions(ctx: RequestContext, provider: WebAuthnProviderConfig, user: { id: string; email?: string | null; name?: string | null }, existing: boolean) {
  const rp = relyingParty(ctx, provider)
  const adapter = ctx.config.adapter as Required<Adapter>
  const owned = existing ? await adapter.listAuthenticatorsByUserId(user.id) : []
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email || user.name || user.id,
    userDisplayName: user.name ?? user.email ?? "",
    // The user handle is the stored user's id: an assertion's userHandle must name the same user.
    userID: new TextEncoder().encode(user.id),
    attestationType: provider.attestationType ?? "none",
    excludeCredentials: owned.map((authenticator) => ({
      id: authenticator.credentialID,
      transports: authenticator.transports ? authenticator.transports.split(",") : undefined,
    })) as never,
    authenticatorSelection: { residentKey: "preferred", userVerification: provider.userVerification ?? "preferred" },
    ...provider.registrationOptions,
  })
}

export async function webauthnOptions(ctx: RequestContext, provider: Provider): Promise<ResponseInternal> {
  if (provider.type !== "webauthn") throw new InvalidRequest(`"${provider.id}" is not a passkey provider`)
  await enforceRateLimit(ctx.config, "webauthnOptions", ctx.request.clientAddress)
  const ceremony = await decide(ctx, provider)
  if (ceremony.action === "authenticate") {
    const rp = relyingParty(ctx, provider)
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: provider.userVerification ?? "preferred", ...provider.authenticationOptions })
    ctx.outCookies.push(challengeCookie(ctx, { challenge: options.challenge, action: "authenticate", provider: provider.id }))
    return json({ action: "authenticate", options })
  }
  const options = await registrationOptions(ctx, provider, ceremony.user, Boolean(ceremony.startedBy))
  ctx.outCookies.push(challengeCookie(ctx, { challenge: options.challenge, action: "register", provider: provider.id, user: ceremony.user, startedBy: ceremony.startedBy }))
  return json({ action: "register", options })
}

