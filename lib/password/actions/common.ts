/**
 * What every password action shares: the configured password provider, the adapter methods they
 * need (a named error when missing), the posted fields, and work done after the answer.
 */
import { AuthError, InvalidRequest, MissingAdapter, MissingAdapterMethods, UnknownAction } from "../../errors.js"
import type { Adapter, AdapterAccount, AdapterUser } from "../../adapters.js"
import type { Account } from "../../types.js"
import { fireEvent } from "../../core/events.js"
import { claimProvenAddress } from "../../linking/unproven-user.js"
import type { RequestContext } from "../../core/context.js"
import { bodyString } from "../../core/request.js"
import { normalizeEmail } from "../../providers/email/identifier.js"
import type { PasswordProviderConfig } from "../options.js"

export function isPasswordProvider(provider: unknown): provider is PasswordProviderConfig {
  return typeof provider === "object" && provider !== null && (provider as { type?: unknown }).type === "credentials" && typeof (provider as { password?: unknown }).password === "object"
}

/** The password provider, or UnknownAction (these paths do not exist without one). */
export function passwordProvider(ctx: RequestContext): PasswordProviderConfig {
  const provider = ctx.config.providers.list.find(isPasswordProvider)
  if (!provider) throw new UnknownAction("No password provider is configured")
  return provider
}

const NEEDED = ["getUser", "getUserByEmail", "getUserByAccount", "createUser", "updateUser", "linkAccount", "getPasswordHash", "setPasswordHash", "deleteVerificationTokens", "createVerificationToken", "useVerificationToken"] as const
export type PasswordAdapter = Required<Pick<Adapter, (typeof NEEDED)[number]>>

export function passwordAdapter(ctx: RequestContext): PasswordAdapter {
  const adapter = ctx.config.adapter
  if (!adapter) throw new MissingAdapter("Password accounts need an adapter")
  const missing = NEEDED.filter((name) => typeof adapter[name] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`Password accounts need these adapter methods: ${missing.join(", ")}`)
  return adapter as PasswordAdapter
}

/** A posted text field (undefined when absent or empty). */
export function field(ctx: RequestContext, name: string): string | undefined {
  const value = bodyString(ctx.request, name)
  return value === undefined || value === "" ? undefined : value
}

export function requiredField(ctx: RequestContext, name: string): string {
  const value = field(ctx, name)
  if (value === undefined) throw new InvalidRequest(`The "${name}" field is required`)
  return value
}

/** The posted address, normalised as the email provider does; InvalidRequest when it is none. */
export function postedEmail(ctx: RequestContext): string {
  try {
    return normalizeEmail(requiredField(ctx, "email"))
  } catch (error) {
    if (error instanceof InvalidRequest) throw error
    throw new InvalidRequest("The email field is not an address", { cause: { err: error } })
  }
}

/**
 * Work done after the answer is sent (storing, mailing): the answer takes the same time whatever
 * the work is. Failures are logged.
 */
export function afterAnswer(ctx: RequestContext, work: () => Promise<unknown>): void {
  // A timer, not setImmediate: the answer is written and the event loop polls once before any of
  // this work runs (a client in the same process would otherwise wait for it).
  setTimeout(() => {
    work().catch((error: unknown) => ctx.config.logger.error(error instanceof AuthError ? error : new AuthError("A password-account task failed", { cause: { err: error } })))
  }, 10)
}

/** The account that marks a password user (a credentials account: the app's own user). */
export function passwordAccount(provider: PasswordProviderConfig, userId: string) {
  return { provider: provider.id, type: "credentials" as const, providerAccountId: userId, userId }
}

/** Links the password account to the user when it is not linked yet. */
export async function ensureLinked(adapter: PasswordAdapter, provider: PasswordProviderConfig, userId: string): Promise<void> {
  const linked = await adapter.getUserByAccount({ provider: provider.id, providerAccountId: userId })
  if (!linked) await adapter.linkAccount(passwordAccount(provider, userId) as unknown as AdapterAccount)
}

/**
 * A mailed link was used: the address is proven. A user whose address nobody had proved goes
 * through the account-linking policy first (lib/linking/unproven-user.ts: methods someone set up
 * before the owner came are removed, or the sign-in is refused), then is marked verified.
 */
export async function proveAddress(ctx: RequestContext, adapter: PasswordAdapter, provider: PasswordProviderConfig, found: AdapterUser): Promise<{ user: AdapterUser; reclaimed: boolean }> {
  if (found.emailVerified) return { user: found, reclaimed: false }
  const claimed = await claimProvenAddress(ctx, found, passwordAccount(provider, found.id) as unknown as Account)
  const user = await adapter.updateUser({ id: claimed.user.id, emailVerified: new Date() })
  await fireEvent(ctx.config, "updateUser", { user })
  return { user, reclaimed: claimed.reclaimed }
}
