/**
 * `POST callback/<password provider>`: the sign-in form (the same fields and errors as
 * credentials). An unknown address and a wrong password are one answer in the same time: a real
 * scrypt hash is checked either way (a fixed dummy when there is no user). A hash made under
 * weaker parameters is replaced after a successful sign-in.
 */
import { CredentialsSignin } from "../../errors.js"
import { EmailNotVerified } from "../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { redirect } from "../../core/response.js"
import { enforceRateLimit, forgiveIdentifier } from "../../rate-limit/limiter.js"
import { forgetSignInFailures, noteSignInFailure, requireHuman } from "../../bot-protection/check.js"
import { dummyHash, hashPassword, needsRehash, verifyPassword } from "../hash.js"
import { normalizePassword, tooLong } from "../policy.js"
import type { PasswordProviderConfig } from "../options.js"
import { randomUUID } from "../../crypto/random.js"
import { authorizeSignIn, completeSignIn } from "../../actions/callback/login.js"
import { field, passwordAccount, passwordAdapter } from "./common.js"
import { normalizeEmail } from "../../providers/email/identifier.js"

function addressOf(raw: string | undefined): string | undefined {
  try {
    return raw === undefined ? undefined : normalizeEmail(raw)
  } catch {
    return undefined
  }
}

/** A wrong address or password: counted for bot protection, then the one answer for every failure. */
async function failed(ctx: RequestContext, raw: string | undefined): Promise<CredentialsSignin> {
  await noteSignInFailure(ctx, raw)
  return new CredentialsSignin("Sign-in with a password failed")
}

export async function passwordSignIn(ctx: RequestContext, provider: PasswordProviderConfig, callbackUrl: string): Promise<ResponseInternal> {
  const adapter = passwordAdapter(ctx)
  const raw = field(ctx, "email")
  await enforceRateLimit(ctx.config, "credentials", ctx.request.clientAddress, raw)
  // Bot protection (issue #33): after repeated failures for the address typed or the client's.
  await requireHuman(ctx, "signIn", raw)
  const email = addressOf(raw)
  const password = field(ctx, "password")
  if (!email || password === undefined || tooLong(password)) throw await failed(ctx, raw)
  const settings = provider.password
  const user = await adapter.getUserByEmail(email)
  // The same reads and one scrypt run whether or not the address has a user.
  const stored = await adapter.getPasswordHash(user?.id ?? randomUUID())
  const matches = await verifyPassword(normalizePassword(password), stored ?? (await dummyHash(settings.hash)))
  if (!user || !stored || !matches) throw await failed(ctx, raw)
  if (settings.requireVerifiedEmail && !user.emailVerified) throw new EmailNotVerified("The password is right, but the address was never confirmed")
  // A hash set before someone else proved the address (and never confirmed) is no way in.
  const linked = await adapter.getUserByAccount({ provider: provider.id, providerAccountId: user.id })
  if (!linked || linked.id !== user.id) throw new CredentialsSignin("Sign-in with a password failed (no password account is linked)")
  if (needsRehash(stored, settings.hash)) await adapter.setPasswordHash(user.id, await hashPassword(normalizePassword(password), settings.hash))
  await forgiveIdentifier(ctx.config, "credentials", raw)
  await forgetSignInFailures(ctx, raw)
  const result = { user, account: passwordAccount(provider, user.id), extra: { credentials: { email } } }
  const elsewhere = await authorizeSignIn(ctx, result)
  if (elsewhere) return redirect(elsewhere)
  return completeSignIn(ctx, result, callbackUrl)
}
