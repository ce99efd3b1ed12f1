/** `Set-Cookie` lines for the cookies an action produced (values percent-encoded by `cookie`). */
import { serialize } from "cookie"
import type { Cookie } from "../types.js"

export function setCookieLines(cookies: readonly Cookie[] | undefined): string[] {
  if (!cookies?.length) return []
  return cookies.map((cookie) => serialize(cookie.name, cookie.value, cookie.options))
}
