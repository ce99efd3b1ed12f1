/**
 * A sign-in that ends in an error: whatever the action threw (`callback/<provider>`, or the
 * `POST signin/<provider>` that starts it) is one `signin` failure record, its reason the error's
 * stable type (CredentialsSignin, OAuthCallbackError, Verification for a used or expired link,
 * OAuthAccountNotLinked, RateLimited, ...). Refusals that pages explain in place (a wrong second
 * factor, a wrong current password) are recorded where they happen.
 */
import type { RequestContext } from "../core/context.js"
import { audit, reasonOf } from "./emit.js"

export function auditActionFailure(ctx: RequestContext, error: unknown): void {
  if (!ctx.config.events.audit) return
  const { action, method, providerId } = ctx.request
  if (action === "callback" || (action === "signin" && method === "POST")) {
    audit(ctx.config, { type: "signin", outcome: "failure", reason: reasonOf(error), provider: providerId })
  }
}
