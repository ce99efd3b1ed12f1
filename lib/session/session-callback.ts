/**
 * The last step of every session read, whatever the strategy: the `session` callback shapes what
 * the client sees (only when the app supplied one, or on an update), then the `session` event.
 * How and when the user signed in (`amr`, `authTime`) stay Gatehouse's whatever the callback
 * returns (issue #24): `requireAuth({ maxAge })` and the app judge the recorded sign-in.
 */
import { SessionTokenError } from "../errors.js"
import type { AdapterUser } from "../adapters.js"
import type { JWT, Session, SessionCallbackParams } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import { keepReservedFacts, SESSION_FACTS, snapshotFacts } from "./reserved-facts.js"

/** A session update (`POST session`, `update()`) of either strategy. */
export interface SessionUpdate {
  /** The client's update data, handed to the `jwt` callback as `session` and to this callback as `newSession`. */
  data: unknown
}

/** The `authenticators` parameter: the user's passkeys, listed on demand. */
function passkeysOf(config: ResolvedConfig, source: { token: JWT } | { user: AdapterUser }) {
  const list = config.passkeys ? config.adapter?.listAuthenticatorsByUserId : undefined
  const userId = "user" in source ? source.user.id : source.token.sub
  if (!list || typeof userId !== "string") return undefined
  return { authenticators: async () => await list.call(config.adapter, userId) }
}

/** The session as the client sees it; null when the callback threw (logged: signed out for this request). */
export async function presentSession(
  config: ResolvedConfig,
  session: Session,
  source: { token: JWT } | { user: AdapterUser },
  update?: SessionUpdate,
): Promise<Session | null> {
  let shown = session
  if (config.custom.session || update) {
    // The recorded facts, kept apart: the callback may change the session it is given in place.
    const recorded = snapshotFacts(session, SESSION_FACTS)
    // ...and the list it is given is its own (a database session's is cached for every read).
    if (Array.isArray(session.amr)) session.amr = [...session.amr]
    const params = { session, ...source, ...(update && { newSession: update.data, trigger: "update" as const }), ...passkeysOf(config, source) }
    try {
      shown = (await config.callbacks.session(params as SessionCallbackParams)) as Session
      if (shown && typeof shown === "object") shown = keepReservedFacts(shown, recorded, SESSION_FACTS)
    } catch (error) {
      config.logger.error(new SessionTokenError("The session callback threw; this request is treated as signed out", { cause: { err: error } }))
      return null
    }
  }
  await fireEvent(config, "session", { session: shown, ...source } as Parameters<typeof fireEvent<"session">>[2])
  return shown
}
