/**
 * A device as people recognise it (issue #26): "Chrome on macOS" from the user agent a session or
 * a passkey started from, as Google and GitHub list them.
 */
import { userAgentParts } from "./user-agent.js"
import { builtInDevicesTexts, type DevicesTexts } from "./builtin-texts.js"

/** The label with these texts (`devices.label`: "{browser} on {system}"); null when neither part is known. */
export function labelWith(userAgent: string | null | undefined, texts: Pick<DevicesTexts, "devices.label">): string | null {
  const { browser, system } = userAgentParts(userAgent)
  if (browser && system) return texts["devices.label"].replace("{browser}", browser).replace("{system}", system)
  return browser ?? system ?? null
}

/**
 * The browser and system a user agent names, in the page's language: `"Chrome on macOS"`
 * (`"Chrome unter macOS"` in German), or only the browser or the system when only one is
 * recognised, or `null` when neither is (show your own "Unknown device").
 *
 * @param userAgent - the `User-Agent` a session started from (`SessionInfo.userAgent` from `listSessions`)
 * @param locale - a BCP 47 language tag; the closest built-in language (en, de, fr, es, ja) is used, else English
 * @example deviceLabel(session.userAgent, "en") // "Firefox on Linux"
 */
export function deviceLabel(userAgent: string | null | undefined, locale = "en"): string | null {
  return labelWith(userAgent, builtInDevicesTexts(locale))
}
