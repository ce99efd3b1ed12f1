/**
 * Sessions and devices as a capability (lib/core/capability.ts): the signed-in user's list of
 * sessions (`GET sessions`) and ending them (`POST sessions/revoke`), with the outcomes of the
 * errors those answer. The logic beside it in this folder (listing, revoking, the revocation
 * checks the session reader asks) is shared with the server helpers (`listSessions`,
 * `revokeSession`, `revokeOtherSessions`, `revokeUserSessions`).
 */
import { lazy, type Capability } from "../core/capability.js"
import { devicesTexts } from "./texts/index.js"
import type { TextsOf } from "../i18n/text-types.js"

declare module "../types.js" {
  interface CapabilityActions {
    sessions: true
  }
}

// Its texts' keys join `MessageKey` from here.
declare module "../i18n/text-types.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface CapabilityMessages extends TextsOf<typeof devicesTexts.en> {}
}

export const devices: Capability = {
  name: "devices",
  texts: devicesTexts,
  routes: {
    // `GET sessions` and `POST sessions/revoke` (the handlers check the second segment).
    sessions: {
      GET: { handler: lazy(() => import("./actions/list.js"), "listSessionsAction"), api: true },
      POST: { handler: lazy(() => import("./actions/revoke.js"), "revokeSessionsAction"), csrf: true },
    },
  },
  subPaths: ["sessions"],
  outcomes: {
    SessionNotFound: { status: 404, message: { text: "There is no such session among yours." } },
    // The shared store did not take a revocation of other sessions (retried until written): the
    // error page's texts are this folder's (texts/).
    RevocationPending: { page: "error", status: 503 },
  },
}
