/**
 * `POST callback/<passkey provider>` with `action` and `data` (the browser's ceremony response as
 * JSON): verified on @simplewebauthn/server against the challenge (used once), this site's origin
 * and RP id. Authentication finds the passkey by credential id, checks that the response's user
 * handle names its user, refuses a counter that goes backwards (a cloned authenticator) and stores
 * the new one (with the time of this use where the adapter keeps it: lib/passkeys/record.ts).
 * Registration stores the passkey (with a default name and its creation time, likewise) for the
 * signed-in user who asked for it, or a new user; a credential id already registered is refused.
 * Every refusal is WebAuthnVerificationError.
 */
import { verifyAuthenticationResponse, verifyRegistrationResponse, type AuthenticationResponseJSON, type RegistrationResponseJSON } from "@simplewebauthn/server"
import { AccountNotLinked, AuthError, InvalidRequest, WebAuthnVerificationError } from "../../errors.js"
import type { Adapter, AdapterAccount, AdapterAuthenticator, AdapterUser } from "../../adapters.js"
import type { Account, ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import type { TransactionalAdapter } from "../../core/adapter.js"
import { bodyString } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import type { WebAuthnProviderConfig } from "../../providers/types.js"
import { clearChallenge, takeChallenge, type Challenge } from "../../providers/webauthn/challenge.js"
import { relyingParty } from "../../providers/webauthn/relying-party.js"
import { fireEvent } from "../../core/events.js"
import { enforceRateLimit } from "../../rate-limit/limiter.js"
import { recordPasskeyUse, registrationDetails } from "../../passkeys/record.js"
import { assertPasskeySignUpAllowed } from "../../linking/passkey-sign-up.js"
import { authorizeSignIn, completeSignIn, type SignInResult } from "./login.js"
import { createUserWithAccount, type AlsoStore } from "./users.js"
import { signedIn } from "../../session/signed-in.js"
import { assertRecentSignIn } from "../../session/assurance.js"
import { sendSecurityNotice } from "../../notices/send.js"

type FullAdapter = Required<Adapter>
const MAX_DATA = 64 * 1024

function parseData(ctx: RequestContext): Record<string, unknown> {
  const raw = bodyString(ctx.request, "data")
  if (!raw || raw.length > MAX_DATA) throw new InvalidRequest("data must be the ceremony's response as JSON")
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    throw new InvalidRequest("data is not valid JSON")
  }
  if (!data || typeof data !== "object" || Array.isArray(data) || typeof (data as { id?: unknown }).id !== "string") {
    throw new InvalidRequest("data must be a credential response object with an id")
  }
  return data as Record<string, unknown>
}

async function verified<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new WebAuthnVerificationError("The passkey response does not verify", { cause: { err: error } })
  }
}

const TRANSPORT = /^[a-z-]{1,32}$/

/**
 * The transports the browser reported for a new passkey (hints for later ceremonies): a short list
 * of short names, or null. Anything else the browser sent is dropped rather than refused.
 */
function transportsOf(data: Record<string, unknown>): string | null {
  const list = (data.response as Record<string, unknown> | undefined)?.transports
  if (!Array.isArray(list) || list.length === 0 || list.length > 8) return null
  return list.every((item) => typeof item === "string" && TRANSPORT.test(item)) ? list.join(",") : null
}

const fromBase64 = (value: string) => new Uint8Array(Buffer.from(value, "base64"))
const decodeHandle = (value: unknown) => (typeof value === "string" ? Buffer.from(value, "base64url").toString("utf8") : undefined)

async function authenticate(ctx: RequestContext, provider: WebAuthnProviderConfig, challenge: Challenge, data: Record<string, unknown>): Promise<SignInResult> {
  const adapter = ctx.config.adapter as FullAdapter
  const rp = relyingParty(ctx, provider)
  const authenticator = await adapter.getAuthenticator(data.id as string)
  // An unknown credential reads like a bad signature: no enumeration of credential ids.
  if (!authenticator) throw new WebAuthnVerificationError("The passkey response does not verify")
  // A passkey answers only to the provider it was registered with (whose rules, like required
  // user verification, it was registered under).
  if (!(await adapter.getAccount(authenticator.providerAccountId, provider.id))) {
    throw new WebAuthnVerificationError("The passkey response does not verify")
  }
  const result = await verified(() =>
    verifyAuthenticationResponse({
      response: data as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: authenticator.credentialID,
        publicKey: fromBase64(authenticator.credentialPublicKey),
        // The counter is checked below, after the signature, so a regression is reported as such.
        counter: 0,
        transports: authenticator.transports ? (authenticator.transports.split(",") as never) : undefined,
      },
      requireUserVerification: provider.userVerification === "required",
      ...provider.verifyAuthenticationOptions,
    }),
  )
  if (!result.verified) throw new WebAuthnVerificationError("The passkey response does not verify")
  const { newCounter } = result.authenticationInfo
  // Counters that stay at 0 are allowed (many platform authenticators); otherwise it must grow.
  if ((authenticator.counter > 0 || newCounter > 0) && newCounter <= authenticator.counter) {
    throw new WebAuthnVerificationError(`The signature counter of passkey ${authenticator.credentialID} went backwards: a cloned authenticator?`)
  }
  const handle = decodeHandle((data.response as Record<string, unknown> | undefined)?.userHandle)
  if (handle !== undefined && handle !== authenticator.userId) throw new WebAuthnVerificationError("The passkey response names another user")
  await recordPasskeyUse(adapter, authenticator.credentialID, newCounter)
  const user = await adapter.getUser(authenticator.userId)
  if (!user) throw new WebAuthnVerificationError("The passkey's user no longer exists")
  const account: Account = { type: "webauthn", provider: provider.id, providerAccountId: authenticator.providerAccountId, userId: user.id }
  return { user, account }
}

interface Registration {
  /** Who the passkey is for: the signed-in user who asked, or a new user not stored yet. */
  user: AdapterUser
  existing: boolean
  account: Account
  authenticator: (userId: string) => AdapterAuthenticator
}

async function verifyRegistration(ctx: RequestContext, provider: WebAuthnProviderConfig, challenge: Challenge, data: Record<string, unknown>): Promise<Registration> {
  const adapter = ctx.config.adapter as FullAdapter
  const rp = relyingParty(ctx, provider)
  if (!challenge.user) throw new WebAuthnVerificationError("The registration challenge names no user")
  const result = await verified(() =>
    verifyRegistrationResponse({
      response: data as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: provider.userVerification === "required",
      ...provider.verifyRegistrationOptions,
    }),
  )
  if (!result.verified) throw new WebAuthnVerificationError("The passkey registration does not verify")
  const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo
  if (await adapter.getAuthenticator(credential.id)) throw new WebAuthnVerificationError("This passkey is registered already")
  const account: Account = { type: "webauthn", provider: provider.id, providerAccountId: credential.id }
  const details = registrationDetails(ctx)
  const authenticator = (userId: string): AdapterAuthenticator => ({
    credentialID: credential.id,
    userId,
    providerAccountId: credential.id,
    credentialPublicKey: Buffer.from(credential.publicKey).toString("base64"),
    counter: credential.counter,
    credentialDeviceType,
    credentialBackedUp,
    transports: transportsOf(data),
    ...details,
  })
  if (challenge.startedBy) {
    // Adding a passkey: only for the session that asked for this registration, still recent (issue #24).
    const who = await signedIn(ctx)
    const current = who?.user
    if (!who || !current || current.id !== challenge.startedBy) throw new WebAuthnVerificationError("The registration was started by another session")
    await assertRecentSignIn(ctx.config, who, "Adding a passkey")
    return { user: current, existing: true, account, authenticator }
  }
  // A new user: with an email provider, only after the address is proved (issue #24).
  assertPasskeySignUpAllowed(ctx)
  if (challenge.user.email && (await adapter.getUserByEmail(challenge.user.email))) {
    throw new AccountNotLinked("A user with this email exists: sign in first, then add a passkey")
  }
  const user: AdapterUser = { id: challenge.user.id, email: challenge.user.email ?? "", name: challenge.user.name ?? null, emailVerified: null }
  return { user, existing: false, account, authenticator }
}

/** Stores a verified registration the signIn callback accepted: the account, the user if new, the passkey. */
async function storeRegistration(ctx: RequestContext, registration: Registration): Promise<SignInResult> {
  const adapter = ctx.config.adapter as FullAdapter & TransactionalAdapter
  let user = registration.user
  let isNewUser = false
  if (registration.existing) {
    const link = { ...registration.account, userId: user.id } as unknown as AdapterAccount
    const work = async (tx: Adapter) => {
      await (tx as FullAdapter).linkAccount(link)
      await (tx as FullAdapter).createAuthenticator(registration.authenticator(user.id))
    }
    if (adapter.transaction) await adapter.transaction(work)
    else {
      await adapter.linkAccount(link)
      try {
        await adapter.createAuthenticator(registration.authenticator(user.id))
      } catch (error) {
        // Best effort: no account left behind that no passkey can use.
        await Promise.resolve(adapter.unlinkAccount?.({ provider: link.provider, providerAccountId: link.providerAccountId })).catch(() => undefined)
        throw error
      }
    }
    await fireEvent(ctx.config, "linkAccount", { user, account: link, profile: user })
    sendSecurityNotice(ctx, user, "passkeyAdded")
  } else {
    const store: AlsoStore = (tx, created) => tx.createAuthenticator(registration.authenticator(created.id))
    const stored = await createUserWithAccount(ctx, user, registration.account, undefined, null, store)
    user = stored.user
    isNewUser = stored.isNewUser
  }
  return { user, account: { ...registration.account, userId: user.id }, isNewUser }
}

export async function webauthnCallback(ctx: RequestContext, provider: WebAuthnProviderConfig): Promise<ResponseInternal> {
  ctx.outCookies.push(...clearChallenge(ctx))
  const action = bodyString(ctx.request, "action")
  if (action !== "authenticate" && action !== "register") throw new InvalidRequest('action must be "authenticate" or "register"')
  const data = parseData(ctx)
  await enforceRateLimit(ctx.config, "webauthn", ctx.request.clientAddress)
  const challenge = await takeChallenge(ctx, provider)
  if (challenge.action !== action) throw new WebAuthnVerificationError(`The challenge was issued for ${challenge.action}, not ${action}`)
  if (action === "authenticate") {
    const result = await authenticate(ctx, provider, challenge, data)
    const elsewhere = await authorizeSignIn(ctx, result)
    if (elsewhere) return redirect(elsewhere)
    return completeSignIn(ctx, result, ctx.callbackUrl ?? ctx.request.origin)
  }
  const registration = await verifyRegistration(ctx, provider, challenge, data)
  // The signIn callback decides before anything is stored.
  const elsewhere = await authorizeSignIn(ctx, { user: registration.user, account: { ...registration.account, userId: registration.user.id } })
  if (elsewhere) return redirect(elsewhere)
  const result = await storeRegistration(ctx, registration)
  // Adding a passkey to the signed-in account is no sign-in: the session goes on as it was, its
  // `authTime` and `amr` unchanged, so a passkey can never refresh a stale session (issue #24).
  if (registration.existing) return redirect(ctx.callbackUrl ?? ctx.request.origin)
  return completeSignIn(ctx, result, ctx.callbackUrl ?? ctx.request.origin)
}
