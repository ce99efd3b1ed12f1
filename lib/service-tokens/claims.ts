/**
 * What a service token says (issue #31): the audience and scopes asked for, checked against what
 * the caller may have, then the claims. `aud` one audience; `scope` space-separated (RFC 8693 /
 * RFC 9068 style), absent when none was asked for; `org` the organization; `via` how the caller
 * proved itself; `act` the admin behind an impersonated session (RFC 8693 section 4.1).
 */
import { randomUUID } from "node:crypto"
import type { RequestContext } from "../core/context.js"
import { InvalidRequest } from "../errors.js"
import type { TokenCaller } from "./caller.js"
import { ServiceTokenScopeDenied } from "./errors.js"
import type { ResolvedServiceTokens } from "./options.js"

export interface ServiceTokenClaims {
  iss: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  scope?: string
  org?: string
  via: "session" | "apiKey"
  act?: { sub: string }
}

/** One value of a query parameter; a parameter given twice is refused rather than guessed at. */
function single(ctx: RequestContext, name: string): string | undefined {
  const values = ctx.request.query.getAll(name)
  if (values.length > 1) throw new InvalidRequest(`${name} is given ${values.length} times`)
  return values[0] || undefined
}

/** The audience asked for: one of the configured ones (the site's origin by default); optional when there is one. */
export function audienceOf(ctx: RequestContext, options: ResolvedServiceTokens): string {
  const allowed = options.audiences ?? [ctx.request.origin]
  const asked = single(ctx, "audience")
  if (asked === undefined) {
    if (allowed.length === 1) return allowed[0] as string
    throw new InvalidRequest(`audience is required: one of ${allowed.join(", ")}`)
  }
  if (!allowed.includes(asked)) throw new InvalidRequest(`audience ${JSON.stringify(asked)} is not one of serviceTokens.audiences`)
  return asked
}

/** The scopes asked for (`scope`, space-separated), each held by the caller; none when none are asked for. */
export function scopesOf(ctx: RequestContext, caller: TokenCaller): string[] {
  const asked = [...new Set((single(ctx, "scope") ?? "").split(" ").filter(Boolean))]
  const missing = asked.filter((scope) => !caller.scopes.has(scope))
  if (missing.length) throw new ServiceTokenScopeDenied(`The caller does not hold ${missing.join(", ")}`)
  return asked
}

export function claimsOf(caller: TokenCaller, issuer: string, audience: string, scopes: readonly string[], maxAge: number, now = Math.floor(Date.now() / 1000)): ServiceTokenClaims {
  return {
    iss: issuer,
    sub: caller.subject,
    aud: audience,
    iat: now,
    exp: now + maxAge,
    jti: randomUUID(),
    ...(scopes.length && { scope: scopes.join(" ") }),
    ...(caller.organizationId && { org: caller.organizationId }),
    via: caller.via,
    ...(caller.actorId && { act: { sub: caller.actorId } }),
  }
}
