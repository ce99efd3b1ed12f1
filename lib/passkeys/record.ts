/**
 * What Gatehouse records about a passkey besides Auth.js's fields (issue #15): a name, when it
 * was registered, and when it last signed in. Only adapters with `updateAuthenticator` store them;
 * others get exactly Auth.js's record (an `@auth/*` adapter may refuse fields it does not know)
 * and their passkeys' counters as before.
 */
import type { Adapter, AdapterAuthenticator } from "../adapters.js"
import type { RequestContext } from "../core/context.js"
import { chooseLocale } from "../i18n/index.js"
import { bodyString } from "../core/request.js"
import { defaultPasskeyName, validPasskeyName } from "./name.js"

export type PasskeyDetails = Pick<AdapterAuthenticator, "name" | "createdAt" | "lastUsedAt">

/** Whether the adapter keeps passkey details (and can rename passkeys). */
export function keepsPasskeyDetails(adapter: Adapter | undefined): boolean {
  return typeof adapter?.updateAuthenticator === "function"
}

/**
 * The details of a passkey registered by this request: the `name` the request gave it (a script
 * such as gatehouse/client's `passkey.register({ name })`; a name that is not valid is ignored:
 * the passkey exists on the authenticator already) or its default name, now, never used.
 */
export function registrationDetails(ctx: RequestContext, now = new Date()): PasskeyDetails {
  if (!keepsPasskeyDetails(ctx.config.adapter)) return {}
  const given = givenName(bodyString(ctx.request, "name"))
  if (given) return { name: given, createdAt: now, lastUsedAt: null }
  const { locale } = chooseLocale(ctx.config.i18n, ctx.request.header("accept-language"))
  return { name: defaultPasskeyName(ctx.request.header("user-agent"), locale.messages), createdAt: now, lastUsedAt: null }
}

function givenName(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  try {
    return validPasskeyName(value)
  } catch {
    return undefined
  }
}

/** A passkey sign-in: the new counter, and its time where the adapter keeps it, in one write. */
export async function recordPasskeyUse(adapter: Adapter, credentialID: string, counter: number, now = new Date()): Promise<void> {
  if (keepsPasskeyDetails(adapter)) await adapter.updateAuthenticator!(credentialID, { counter, lastUsedAt: now })
  else await adapter.updateAuthenticatorCounter!(credentialID, counter)
}
