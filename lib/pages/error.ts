/** The error page's view model. The `error` value only selects a message; it is never echoed. */
import { DEFAULT_ERROR_PAGE, ERROR_PAGES, own } from "./messages.js"

export interface ErrorModel {
  status: number
  heading: string
  message: string
  link: { href: string; text: string }
}

export function errorModel(error: string | undefined, links: { signIn: string; home: string }): ErrorModel {
  const entry = own(ERROR_PAGES, error) ?? DEFAULT_ERROR_PAGE
  const toSignIn = error === "AccessDenied" || error === "Verification"
  return {
    status: entry.status,
    heading: entry.heading,
    message: entry.message,
    link: toSignIn ? { href: links.signIn, text: "Sign in again" } : { href: links.home, text: "Go to the home page" },
  }
}
