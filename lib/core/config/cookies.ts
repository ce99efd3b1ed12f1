/**
 * The two cookie sets (plain HTTP and HTTPS), each with the user's overrides applied. Which one a
 * request uses is decided per request when the scheme is not fixed by AUTH_URL or
 * `useSecureCookies`.
 */
import type { AuthConfig, CookieName, CookiesOptions } from "../../types.js"
import { defaultCookies } from "./defaults.js"
import { assertCookieOverride } from "./validate.js"
import { show } from "./show.js"
import { InvalidOption } from "../../errors.js"

const COOKIE_NAMES: readonly CookieName[] = [
  "sessionToken",
  "callbackUrl",
  "csrfToken",
  "pkceCodeVerifier",
  "state",
  "nonce",
  "webauthnChallenge",
]

export interface CookieSets {
  plain: CookiesOptions
  secure: CookiesOptions
}

export function resolveCookies(overrides: AuthConfig["cookies"]): CookieSets {
  if (overrides !== undefined && (typeof overrides !== "object" || overrides === null)) {
    throw new InvalidOption(`cookies must be an object (got ${show(overrides)})`)
  }
  for (const key of Object.keys(overrides ?? {})) {
    if (!COOKIE_NAMES.includes(key as CookieName)) {
      throw new InvalidOption(`cookies.${key} is not a cookie Gatehouse sets (known: ${COOKIE_NAMES.join(", ")})`)
    }
  }
  const build = (secure: boolean): CookiesOptions => {
    const set = defaultCookies(secure)
    for (const key of COOKIE_NAMES) {
      const override = overrides?.[key]
      if (!override) continue
      const name = override.name ?? set[key].name
      const options = { ...set[key].options, ...override.options }
      // A prefixed name only works over HTTPS: keep Secure on for it whatever the scheme.
      if ((name.startsWith("__Secure-") || name.startsWith("__Host-")) && override.options?.secure === undefined) options.secure = true
      assertCookieOverride(`cookies.${key}`, name, { ...override.options, secure: options.secure })
      set[key] = { name, options }
    }
    for (const key of COOKIE_NAMES) set[key] = Object.freeze({ name: set[key].name, options: Object.freeze({ ...set[key].options }) })
    return Object.freeze(set)
  }
  return Object.freeze({ plain: build(false), secure: build(true) })
}
