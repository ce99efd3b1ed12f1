/**
 * Every error type in words, in English: the sign-in page's text for an `error` value, the error
 * page's (with its status), and the `message` of a JSON error body. The core's (lib/pages/messages.ts)
 * and every capability's: its outcomes (lib/core/capability.ts) and its texts. Built once, when this
 * module loads; it reads lib/capabilities.ts, so only the top of the pipeline imports it (the error
 * outcome, the router, the error page's action, `requireAuth`).
 */
import { CAPABILITIES } from "../capabilities.js"
import type { MessageKey } from "../i18n/en.js"
import { ERROR_PAGE_STATUS as CORE_ERROR_PAGE_STATUS, PROTOCOL_MESSAGES, errorPageText, own, type PageMessage } from "../pages/messages.js"
import { ENGLISH as en } from "./built-in-texts.js"

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key)
const OUTCOMES = CAPABILITIES.flatMap((capability) => Object.entries(capability.outcomes ?? {}))

const SIGNIN_ERROR = "signin.error."

/** Values the sign-in page explains: those with a text `signin.error.<value>` (the core's and the capabilities'). */
export const SIGNIN_ERROR_TYPES: readonly string[] = Object.freeze(
  Object.keys(en)
    .filter((key) => key.startsWith(SIGNIN_ERROR) && key !== `${SIGNIN_ERROR}default`)
    .map((key) => key.slice(SIGNIN_ERROR.length)),
)

/**
 * Values the error page explains, with their status; anything else gets the default page (200).
 * The core's, and each capability outcome on the error page whose texts it has (with the outcome's status).
 */
export const ERROR_PAGE_STATUS: Readonly<Record<string, number>> = Object.freeze({
  ...CORE_ERROR_PAGE_STATUS,
  ...Object.fromEntries(OUTCOMES.filter(([type, outcome]) => outcome.page === "error" && !outcome.value && has(en, `error.${type}.heading`)).map(([type, outcome]) => [type, outcome.status])),
})

export const SIGNIN_ERRORS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(SIGNIN_ERROR_TYPES.map((type) => [type, en[`${SIGNIN_ERROR}${type}` as MessageKey]])),
)

export const DEFAULT_SIGNIN_ERROR = en["signin.error.default"]

export const ERROR_PAGES: Readonly<Record<string, PageMessage & { status: number }>> = Object.freeze(
  Object.fromEntries(Object.entries(ERROR_PAGE_STATUS).map(([key, status]) => [key, Object.freeze({ status, ...errorPageText(en, key) })])),
)

export const DEFAULT_ERROR_PAGE: PageMessage & { status: number } = Object.freeze({ status: 200, ...errorPageText(en, "default") })

/** What API clients are told of a capability's error types whose outcome says (`message`). */
const CAPABILITY_MESSAGES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    OUTCOMES.flatMap(([type, { message }]) => {
      const text = message && ("text" in message ? message.text : own<string>(en, message.key))
      return text === undefined ? [] : [[type, text]]
    }),
  ),
)

/** Short, client-safe text for JSON error bodies, by the type shown to the client. */
export function publicMessage(type: string): string {
  return own(PROTOCOL_MESSAGES, type) ?? own(CAPABILITY_MESSAGES, type) ?? own(SIGNIN_ERRORS, type) ?? own(ERROR_PAGES, type)?.message ?? DEFAULT_ERROR_PAGE.message
}
