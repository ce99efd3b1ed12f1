/**
 * Sessions and devices as a capability (lib/core/capability.ts): the signed-in user's list of
 * sessions (`GET sessions`) and ending them (`POST sessions/revoke`), with the outcomes of the
 * errors those answer. The logic beside it in this folder (listing, revoking, the revocation
 * checks the session reader asks) is shared with the server helpers (`listSessions`,
 * `revokeSession`, `revokeOtherSessions`, `revokeUserSessions`).
 */
import { lazy, type Capability } from "../core/capability.js"

declare module "../types.js" {
  interface CapabilityActions {
    sessions: true
  }
}

export const devices: Capability = {
  name: "devices",
  routes: {
    // `GET sessions` and `POST sessions/revoke` (the handlers check the second segment).
    sessions: {
      GET: { handler: lazy(() => import("./actions/list.js"), "listSessionsAction"), api: true },
      POST: { handler: lazy(() => import("./actions/revoke.js"), "revokeSessionsAction"), csrf: true },
    },
  },
  subPaths: ["sessions"],
  outcomes: {
    SessionNotFound: { status: 404 },
    // The shared store did not take a revocation of other sessions (retried until written).
    RevocationPending: { page: "error", status: 503 },
  },
}
