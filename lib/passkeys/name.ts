/**
 * Passkey names (issue #15): the one a passkey gets when it is registered, and the rule for the
 * names people give it on the account page.
 *
 * The default says where it was made, in the registering page's language: "Chrome on Linux"
 * ("{browser} on {system}" in the catalog), or just the browser or the system when only one is
 * recognised, or no name at all (the page then shows the end of the credential id). It is not the
 * authenticator's maker (its AAGUID): @simplewebauthn/server gives the AAGUID but no names, and
 * most platform passkeys report none.
 */
import type { Messages } from "../i18n/en.js"
import { InvalidPasskeyName } from "./errors.js"
import { userAgentParts } from "../devices/user-agent.js"

export const MAX_PASSKEY_NAME_LENGTH = 64

export function defaultPasskeyName(userAgent: string | null | undefined, t: Pick<Messages, "account.passkeys.defaultName">): string | null {
  const { browser, system } = userAgentParts(userAgent)
  if (browser && system) return t["account.passkeys.defaultName"].replace("{browser}", browser).replace("{system}", system)
  return browser ?? system ?? null
}

/** A name given to a passkey: trimmed, NFC, 1 to 64 characters, no control characters; else InvalidPasskeyName. */
export function validPasskeyName(value: unknown): string {
  const name = typeof value === "string" ? value.normalize("NFC").trim() : ""
  // eslint-disable-next-line no-control-regex
  if (!name || [...name].length > MAX_PASSKEY_NAME_LENGTH || /[\x00-\x1f\x7f-\x9f]/.test(name)) {
    throw new InvalidPasskeyName(`A passkey name must be 1 to ${MAX_PASSKEY_NAME_LENGTH} characters, without control characters`)
  }
  return name
}
