/**
 * `auth.organization` (issue #27): the organization the signed-in user acts for, with their role
 * and permissions there, added to every session read (`req.auth`, `GET session`, `getSession`)
 * when organizations are on: `{ id, slug, role, permissions }`, or null for a user in no
 * organization. It is added after the app's `session` callback, so no callback or update can
 * change it.
 *
 * Which organization: the one this browser last switched to (the `gatehouse.organization` cookie,
 * an organization id: HttpOnly, SameSite=Lax, `__Host-` on HTTPS), when the user is still a member; otherwise the
 * user's oldest membership. The cookie chooses only among the user's own memberships, so it needs
 * no seal: a forged value reads as no choice. Role and permissions come from this process's
 * membership cache (memberships.ts): no database round trip while it is fresh.
 */
import type { Cookie, CookiesOptions, Session } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { CookieJar } from "../session/chunks.js"
import type { SessionFactsInput } from "../core/config/resolved.js"
import { userMemberships, type ActiveOrganization, type UserMemberships } from "./memberships.js"
import type { ResolvedOrganizations } from "./settings.js"

/** About 400 days, the longest lifetime browsers keep (RFC 6265bis). */
const MAX_AGE = 400 * 24 * 60 * 60

export function organizationCookieName(secure: boolean): string {
  return secure ? "__Host-gatehouse.organization" : "gatehouse.organization"
}

/** The cookie that makes `organizationId` this browser's active organization (`null`: clears it). */
export function organizationCookie(secure: boolean, organizationId: string | null): Cookie {
  return {
    name: organizationCookieName(secure),
    value: organizationId ?? "",
    options: { httpOnly: true, sameSite: "lax", path: "/", secure, ...(organizationId === null ? { maxAge: 0, expires: new Date(0) } : { maxAge: MAX_AGE }) },
  }
}

/** The active organization among `memberships` for a browser whose cookie says `chosen`. */
export function activeOf(memberships: UserMemberships, chosen: string | undefined): ActiveOrganization | null {
  const picked = chosen ? memberships.byId.get(chosen) : undefined
  return (picked ?? memberships.list[0])?.fact ?? null
}

function withFact<R extends SessionFactsInput>(result: R, memberships: UserMemberships, chosen: string | undefined): R {
  const organization = activeOf(memberships, chosen)
  const session = result.session as Session
  if (Object.isFrozen(session)) result.session = { ...session, organization }
  else session.organization = organization
  return result
}

/** Adds `organization` to a signed-in read. Without a promise when the user's memberships are fresh here. */
export function attachOrganization<R extends SessionFactsInput>(config: ResolvedConfig, settings: ResolvedOrganizations, jar: CookieJar, set: CookiesOptions, result: R): R | Promise<R> {
  const userId = result.identity?.userId
  if (!result.session || userId === undefined) return result
  const chosen = jar[organizationCookieName(set.sessionToken.options.secure === true)]
  const memberships = userMemberships(config, settings, userId)
  if (!(memberships instanceof Promise)) return withFact(result, memberships, chosen)
  return memberships.then((known) => withFact(result, known, chosen))
}
