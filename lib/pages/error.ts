/** The error page's view model. The `error` value only selects a message; it is never echoed. */
import { CORE_ENGLISH as en } from "../i18n/catalogs.js"
import type { Messages } from "../i18n/en.js"
import { ERROR_PAGE_STATUS, errorPageKey, errorPageText, own } from "./messages.js"

export interface ErrorModel {
  /** Which entry was chosen: a value the page explains, or `default`. */
  type: string
  status: number
  heading: string
  message: string
  link: { href: string; text: string }
}

/** The page for a path that is no action (or an action that is off), asked for by a browser. */
const NOT_FOUND = "UnknownAction"

/** The links' texts and targets for an error page of `type`. */
function linkFor(type: string, links: { signIn: string; home: string }, t: Messages): ErrorModel["link"] {
  if (type === NOT_FOUND) return { href: links.signIn, text: t["link.signIn"] }
  const toSignIn = type === "AccessDenied" || type === "Verification"
  return toSignIn ? { href: links.signIn, text: t["link.signInAgain"] } : { href: links.home, text: t["link.home"] }
}

/** "Page not found" (404), with the way to the sign-in page (`signIn`: its URL). */
export function notFoundModel(signIn: string, t: Messages = en as Messages): ErrorModel {
  return { type: NOT_FOUND, status: 404, ...errorPageText(t, NOT_FOUND), link: linkFor(NOT_FOUND, { signIn, home: signIn }, t) }
}

/**
 * `pages`: the values the page explains, with their status (default: the core's; the error page's
 * action passes every capability's too, lib/core/error-messages.ts); `t` has their texts (default:
 * the core's English).
 */
export function errorModel(error: string | undefined, links: { signIn: string; home: string }, t: Messages = en as Messages, pages = ERROR_PAGE_STATUS): ErrorModel {
  const type = errorPageKey(error, pages)
  return { type, status: pages[type] ?? 200, ...errorPageText(t, type), link: linkFor(type, links, t) }
}

/** `model` with its texts taken from catalog `t` (the links keep their targets). */
export function localizeErrorModel(model: ErrorModel, t: Messages): ErrorModel {
  const type = own(t, `error.${model.type}.heading`) === undefined ? "default" : model.type
  const link = linkFor(type, { signIn: model.link.href, home: model.link.href }, t)
  return { ...model, ...errorPageText(t, type), link }
}
