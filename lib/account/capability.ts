/**
 * The account page as a capability (lib/core/capability.ts): `GET account` (the page, and
 * `account/confirm-email` and `account/undo-email`, the pages the mailed links open) and
 * `POST account/<action>` (its forms: name, email, confirm-email, undo-email, unlink,
 * passkey-remove, passkey-rename, delete; the handler checks the segment). The logic beside it in
 * this folder is shared with the server helpers `unlinkAccount` and `deleteAccount`.
 */
import { lazy, type Capability } from "../core/capability.js"
import { accountTexts } from "./texts/index.js"

declare module "../types.js" {
  interface CapabilityActions {
    account: true
  }
}

export const account: Capability = {
  name: "account",
  texts: accountTexts,
  routes: {
    account: {
      GET: { handler: lazy(() => import("./actions/page.js"), "accountPage"), head: true },
      POST: { handler: lazy(() => import("./actions/post.js"), "accountAction"), csrf: true },
    },
  },
  subPaths: ["account"],
  outcomes: {
    // No adapter: no users to manage.
    AccountPageUnavailable: { page: "error", status: 501 },
    LastSignInMethod: { status: 409 },
    SignInMethodNotFound: { status: 404 },
  },
}
