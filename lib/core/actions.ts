/** The actions of the spec and of every capability, and how their paths look under the base path. */
import type { AuthAction } from "../types.js"
import { CAPABILITIES } from "../capabilities.js"
import type { Mount } from "./capability.js"

const CORE_ACTIONS: readonly AuthAction[] = [
  "callback",
  "csrf",
  "diagnostics",
  "error",
  "notice",
  "providers",
  "session",
  "signin",
  "signout",
  "verify-request",
  "webauthn-options",
]

export const AUTH_ACTIONS: readonly AuthAction[] = [...CORE_ACTIONS, ...CAPABILITIES.flatMap((capability) => Object.keys(capability.routes ?? {}) as AuthAction[])]

const ACTION_SET: ReadonlySet<string> = new Set(AUTH_ACTIONS)
/**
 * Actions whose path may (or must) name a provider (`/signin/github`), or a second segment that
 * the action checks itself (`account/delete`, a capability's `subPaths`).
 */
const PROVIDER_ACTIONS: ReadonlySet<string> = new Set(["signin", "callback", "webauthn-options", ...CAPABILITIES.flatMap((capability) => capability.subPaths ?? [])])

/** Actions whose path goes on for several segments (a capability's `deepPaths`): the handler reads them. */
const DEEP_ACTIONS: ReadonlySet<string> = new Set(CAPABILITIES.flatMap((capability) => capability.deepPaths ?? []))
const MAX_DEEP_SEGMENTS = 6

/** The capabilities' raw-request protocols (lib/core/capability.ts `Mount`), in the order of lib/capabilities.ts. */
export const MOUNTS: readonly Mount[] = CAPABILITIES.flatMap((capability) => (capability.mount ? [capability.mount] : []))

export function isAuthAction(value: unknown): value is AuthAction {
  return typeof value === "string" && ACTION_SET.has(value)
}

/** `/assets/<file>`: a file the router serves itself (see pages/assets.ts); undefined otherwise. */
export function parseAssetPath(path: string): string | undefined {
  const match = /^\/assets\/([a-z0-9-]+\.js)$/.exec(path)
  return match ? match[1] : undefined
}

export interface ActionPath {
  action: AuthAction
  providerId?: string
}

/**
 * Reads `/<action>[/<providerId>]` (the path after the base path; one trailing slash allowed), and
 * for a capability's deep paths `/<action>/<a>/<b>/...` (up to six segments, `providerId` "a/b/...").
 * Segments are compared as received, without percent-decoding, so `%2F` never acts as a
 * separator and `%63srf` is not `csrf`. Null for anything else.
 */
export function parseActionPath(path: string): ActionPath | null {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
  const parts = trimmed.split("/")
  // A capability's deep paths (`sso/saml/<connection>/acs`): the rest of the path, every segment non-empty.
  if (parts.length > 3 && parts[0] === "" && DEEP_ACTIONS.has(parts[1] as string)) {
    const rest = parts.slice(2)
    return rest.every((segment) => segment.length > 0) && rest.length <= MAX_DEEP_SEGMENTS ? { action: parts[1] as AuthAction, providerId: rest.join("/") } : null
  }
  if (parts[0] !== "" || parts.length < 2 || parts.length > 3) return null
  const action = parts[1]
  if (!isAuthAction(action)) return null
  const providerId = parts[2]
  if (providerId === undefined) return { action }
  if (!providerId || !PROVIDER_ACTIONS.has(action)) return null
  return { action, providerId }
}
