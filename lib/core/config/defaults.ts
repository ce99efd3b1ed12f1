/**
 * Every default of the configuration, in one place, each with the reason for its value.
 */
import type { CookieOptions, CookiesOptions } from "../../types.js"

/** The spec's default base path for every integration but the next-style one. */
export const DEFAULT_BASE_PATH = "/auth"

/** 30 days: the spec's session `maxAge`. */
export const DEFAULT_SESSION_MAX_AGE = 30 * 24 * 60 * 60

/** 1 day: expiry is pushed out at most this often, so reads do not rewrite the cookie each time. */
export const DEFAULT_UPDATE_AGE = 24 * 60 * 60
/** A sign-in this recent (seconds) may add or remove a way in, or change the email or password (issue #24). */
export const DEFAULT_RECENT_SIGN_IN = 10 * 60
/** Entries per session cache and process (`session.cacheSize`, issue #36): about 1.5 kB each. */
export const DEFAULT_SESSION_CACHE_SIZE = 10_000

/** The spec's default log level: errors only. */
export const DEFAULT_LOG_LEVEL = "error" as const

/** 15 minutes for values that only live for one sign-in flow (PKCE, state, nonce, challenge). */
export const FLOW_COOKIE_MAX_AGE = 15 * 60

/**
 * Request bodies are small forms and JSON; 100 kB leaves room for a passkey attestation while
 * refusing anything meant to exhaust memory.
 */
export const BODY_LIMIT_BYTES = 100 * 1024
/** Forms with more fields than this are refused before parsing (no allocation per parameter). */
export const BODY_PARAMETER_LIMIT = 200

/** A callback URL longer than this falls back to the site root: it would not fit in a cookie. */
export const MAX_CALLBACK_URL_LENGTH = 2048

/**
 * The cookie names and options, wire-compatible with Auth.js v5 so an app that moves keeps its
 * users signed in. On HTTPS, names carry the `__Secure-` prefix, and the CSRF cookie `__Host-`
 * (RFC 6265bis §4.1.3: Secure, Path=/, no Domain), so a sibling subdomain cannot plant it.
 */
export function defaultCookies(secure: boolean): CookiesOptions {
  const prefix = secure ? "__Secure-" : ""
  const base: CookieOptions = { httpOnly: true, sameSite: "lax", path: "/", secure }
  const flow: CookieOptions = { ...base, maxAge: FLOW_COOKIE_MAX_AGE }
  return {
    sessionToken: { name: `${prefix}authjs.session-token`, options: base },
    callbackUrl: { name: `${prefix}authjs.callback-url`, options: base },
    csrfToken: { name: `${secure ? "__Host-" : ""}authjs.csrf-token`, options: base },
    pkceCodeVerifier: { name: `${prefix}authjs.pkce.code_verifier`, options: flow },
    state: { name: `${prefix}authjs.state`, options: flow },
    nonce: { name: `${prefix}authjs.nonce`, options: flow },
    webauthnChallenge: { name: `${prefix}authjs.challenge`, options: flow },
  }
}
