/**
 * The URL of a built-in page, or of the app's replacement from `pages`. Relative `pages` values
 * are paths on the site's origin.
 */
import type { PagesOptions } from "../types.js"
import type { ResolvedConfig } from "./config/resolved.js"

export type PageName = keyof Pick<
  PagesOptions,
  "signIn" | "signOut" | "error" | "verifyRequest" | "signUp" | "verifyEmail" | "forgotPassword" | "resetPassword" | "changePassword"
>

const ACTION_OF: Record<PageName, string> = {
  signIn: "signin",
  signOut: "signout",
  error: "error",
  verifyRequest: "verify-request",
  signUp: "signup",
  verifyEmail: "verify-email",
  forgotPassword: "forgot-password",
  resetPassword: "reset-password",
  changePassword: "change-password",
}

export interface PageSite {
  config: ResolvedConfig
  /** origin + basePath */
  baseUrl: string
  request: { origin: string }
}

export function pageUrl(site: PageSite, page: PageName, params?: URLSearchParams): string {
  const custom = site.config.pages[page]
  const url = custom ? new URL(custom, site.request.origin) : new URL(`${site.baseUrl}/${ACTION_OF[page]}`)
  params?.forEach((value, key) => url.searchParams.set(key, value))
  return url.href
}

/** The built-in page's own path, to notice a `pages` entry that points back at it (a loop). */
export function builtInPath(basePath: string, page: PageName): string {
  return `${basePath === "/" ? "" : basePath}/${ACTION_OF[page]}`
}
