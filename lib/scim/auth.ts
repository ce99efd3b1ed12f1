/**
 * Who is calling the SCIM endpoints (issue #29): `Authorization: Bearer <token>`, looked up by its
 * SHA-256 (base64url, as stored) and accepted only for the organization it was made for, so a
 * token never reaches another organization and the answer never tells whether one exists (one 401
 * for a missing, unknown, revoked or foreign token). Each token has its own rate limit in the
 * shared store (`scim.rateLimit` a minute: 429 with Retry-After); its last use is recorded at most
 * once a minute.
 */
import { createHash } from "node:crypto"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { Adapter } from "../adapters.js"
import type { AdapterScimToken } from "./adapter.js"
import type { ResolvedScim } from "./settings.js"
import { ScimRefusal } from "./respond.js"

type TokenStorage = Required<Pick<Adapter, "getScimTokenByHash" | "touchScimToken">>

const RATE_WINDOW_SECONDS = 60
const TOUCH_EVERY_MS = 60_000
/** Longer than any token Gatehouse makes: not worth hashing. */
const MAX_TOKEN_LENGTH = 512

export function hashScimToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url")
}

function refused(): ScimRefusal {
  return new ScimRefusal(401, "A valid bearer token of this organization is required", { "WWW-Authenticate": 'Bearer realm="SCIM"' })
}

function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i.exec(header) : null
  const token = match?.[1]
  return token && token.length <= MAX_TOKEN_LENGTH ? token : undefined
}

/** The calling token, checked against the path's organization and counted; ScimRefusal otherwise. */
export async function authenticate(config: ResolvedConfig, settings: ResolvedScim, organizationId: string, authorization: string | undefined): Promise<AdapterScimToken> {
  const bearer = bearerOf(authorization)
  if (!bearer) throw refused()
  const storage = config.adapter as unknown as TokenStorage
  const token = await storage.getScimTokenByHash(hashScimToken(bearer))
  if (!token || token.organizationId !== organizationId) throw refused()
  const { count, resetAt } = await config.store.hit(`scim:token:${token.id}`, RATE_WINDOW_SECONDS)
  if (count > settings.rateLimit) {
    const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
    throw new ScimRefusal(429, `Too many requests for this token (${settings.rateLimit} a minute)`, { "Retry-After": String(retryAfter) })
  }
  const now = new Date()
  if (!token.lastUsedAt || now.getTime() - new Date(token.lastUsedAt).getTime() >= TOUCH_EVERY_MS) {
    // A failed record of use must not fail the request.
    await Promise.resolve(storage.touchScimToken(token.id, now)).catch((error: unknown) => config.logger.error(error instanceof Error ? error : new Error(String(error))))
  }
  return token
}
