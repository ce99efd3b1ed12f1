/**
 * Whether a passkey may be created for a new address at once (issue #24). With an email provider
 * configured, the address is proved first: the sign-in page's "create a passkey" sends a magic
 * link whose sign-in lands on `passkey-setup`, where the now proven user creates the passkey. The
 * passkey endpoints refuse a registration for a new user without a session then
 * (`EmailProofRequired`), so nobody can skip the proof by calling them directly. Without an email
 * provider (a passkey-only site) nothing can prove an address, and the user is created unproven,
 * to be reclaimed by a later proving sign-in (lib/linking/unproven-user.ts).
 */
import { EmailProofRequired } from "../errors.js"
import type { RequestContext } from "../core/context.js"

/** Throws `EmailProofRequired` when an email provider could prove the address first. */
export function assertPasskeySignUpAllowed(ctx: RequestContext): void {
  if (ctx.config.providers.list.some((provider) => provider.type === "email")) {
    throw new EmailProofRequired("With an email provider configured, a passkey for a new address is created after the address is proved (a sign-in link, then passkey-setup)")
  }
}
