/** The password pages in the action table: each page's GET (and HEAD), and its form's POST (CSRF-checked). */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { changeGet, changePost } from "./change.js"
import { forgotGet, forgotPost } from "./forgot.js"
import { resetGet, resetPost } from "./reset.js"
import { signupGet, signupPost } from "./signup.js"
import { verifyEmailGet, verifyEmailPost } from "./verify-email.js"

type Handler = (ctx: RequestContext) => Promise<ResponseInternal>
const page = (get: Handler, post: Handler) => ({ GET: { handler: get, head: true }, POST: { handler: post, csrf: true } })

export const PASSWORD_ROUTES = {
  signup: page(signupGet, signupPost),
  "verify-email": page(verifyEmailGet, verifyEmailPost),
  "forgot-password": page(forgotGet, forgotPost),
  "reset-password": page(resetGet, resetPost),
  "change-password": page(changeGet, changePost),
} as const
