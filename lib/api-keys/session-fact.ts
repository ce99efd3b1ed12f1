/**
 * `auth.via` (issue #31): with API keys on, every session read says it is one (`"session"`), so a
 * route taking both can tell; a request with a key gets `"apiKey"` (guard.ts). Set after the
 * app's callbacks, so none of them can make a session look like a key (`via`, `apiKey`).
 */
import type { Session } from "../types.js"
import type { SessionFacts, SessionFactsInput } from "../core/config/resolved.js"

/** Always `"session"`, and never an `apiKey`, whatever the app's callbacks returned: only a verified key says otherwise. */
function withVia<R extends SessionFactsInput>(result: R): R {
  const session = result.session as Session | null
  if (!session || (session.via === "session" && session.apiKey === undefined)) return result
  const own: Session = Object.isFrozen(session) ? { ...session } : session
  own.via = "session"
  delete own.apiKey
  result.session = own
  return result
}

export const sessionVia: SessionFacts = (_config, _jar, _set, result) => withVia(result)
