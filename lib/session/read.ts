/**
 * Reading the session, whatever the strategy. Shared by the `session` action and by
 * `authSession`/`requireAuth`/`getSession`, which call it directly (no action pipeline).
 */
import type { CookiesOptions } from "../types.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { CookieJar } from "./chunks.js"
import { readCookieSession, type ClientSource, type SessionResult } from "./cookie-strategy.js"
import type { SessionUpdate } from "./session-callback.js"
import { readDatabaseSession } from "./database-strategy.js"
import { countSessionRead } from "../telemetry/counts.js"

export type { SessionResult, SessionUpdate }

/**
 * `client` gives the user agent and address, asked for only when a session record is written.
 * A cookie session's common read answers without a promise (see readCookieSession); callers that
 * `await` it see no difference.
 */
export function readSession(config: ResolvedConfig, jar: CookieJar, set: CookiesOptions, update?: SessionUpdate, client?: ClientSource): SessionResult | Promise<SessionResult> {
  let read = config.session.strategy === "database" ? readDatabaseSession(config, jar, set, update) : readCookieSession(config, jar, set, update, client)
  // A capability's facts about the signed-in user (organizations: `auth.organization`), after the app's callbacks.
  const facts = config.sessionFacts
  if (facts) read = read instanceof Promise ? read.then((result) => facts(config, jar, set, result)) : facts(config, jar, set, read)
  // One counter add per read (gatehouse.session.reads); no span on this path.
  return countSessionRead(config, read)
}
