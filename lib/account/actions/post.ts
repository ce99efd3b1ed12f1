/**
 * `POST account/<action>` (CSRF-protected), for the account page's forms and for apps that draw
 * their own: `name` (`name=`), `email` (`email=`: a confirmation link to the new address),
 * `confirm-email` (`token=`, `email=`: the link's button), `unlink` (`provider=`), `passkey-remove`
 * (`credentialID=`), `passkey-rename` (`credentialID=`, `name=`), `delete` (`confirm=yes`, and a
 * recent sign-in). Forms go back to the account page (`?saved=` or
 * `?error=<type>` for a refusal the page explains); API calls (Accept: application/json) get
 * JSON, or the error's status. Deleting signs the browser out and goes to `callbackUrl`.
 */
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { bodyString } from "../../core/request.js"
import { json, redirect } from "../../core/response.js"
import { AuthError, InvalidRequest, UnknownAction } from "../../errors.js"
import { deleteUserAccount } from "../delete.js"
import { changeName } from "../profile.js"
import { confirmEmailChange, requestEmailChange } from "../email-change.js"
import { removePasskey, unlinkProvider } from "../remove.js"
import { accountAdapter, type AccountHolder } from "../user.js"
import { requireHolder } from "../../session/assurance.js"
import { renamePasskey } from "../../passkeys/rename.js"
import { clearChunked } from "../../session/chunks.js"
import { undoEmailAction } from "./undo-email.js"

/** Refusals the account page explains in place (anything else takes its usual outcome). */
const EXPLAINED = new Set(["LastOwner", "LastSignInMethod", "SignInMethodNotFound", "InvalidRequest", "InvalidPasskeyName", "EmailSignInError", "Verification"])

async function deleteAction(ctx: RequestContext, holder: AccountHolder): Promise<ResponseInternal> {
  if (bodyString(ctx.request, "confirm") !== "yes") throw new InvalidRequest("Deleting the account needs confirm=yes")
  const goTo = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  await deleteUserAccount(ctx.config, holder)
  ctx.outCookies.push(...clearChunked(ctx.cookies.sessionToken, ctx.request.cookies))
  return ctx.wantsJson ? json({ deleted: true }) : redirect(goTo)
}

async function perform(ctx: RequestContext, holder: AccountHolder, action: string | undefined): Promise<ResponseInternal | undefined> {
  const body = ctx.request.body ?? {}
  switch (action) {
    case "name":
      return void (await changeName(ctx.config, holder, body.name))
    case "email":
      return void (await requestEmailChange(ctx, holder, body.email))
    case "confirm-email":
      return void (await confirmEmailChange(ctx, holder, body.token, body.email))
    case "unlink":
      return void (await unlinkProvider(ctx.config, holder, body.provider))
    case "passkey-remove":
      return void (await removePasskey(ctx.config, holder, body.credentialID))
    case "passkey-rename":
      return void (await renamePasskey(ctx.config, holder, body.credentialID, body.name))
    case "delete":
      return deleteAction(ctx, holder)
    default:
      throw new UnknownAction(`No action at account/${action ?? ""}`)
  }
}

/**
 * What each action needs of the session (issue #24): the changes that add or remove a way in or
 * change who owns the account need a recent sign-in (lib/session/assurance.ts); the rest a session.
 */
const NEEDS_RECENT: ReadonlySet<string> = new Set(["email", "unlink", "passkey-remove", "delete"])

async function holderFor(ctx: RequestContext, action: string | undefined): Promise<AccountHolder> {
  accountAdapter(ctx.config)
  const who = await requireHolder(ctx, action !== undefined && NEEDS_RECENT.has(action) ? "recent" : "session", `account/${action ?? ""}`)
  return { user: who.user, identity: who.identity }
}

export async function accountAction(ctx: RequestContext): Promise<ResponseInternal> {
  const action = ctx.request.providerId
  const back = `${ctx.baseUrl}/account`
  // Deleting with a stale sign-in: the sign-in page, then back to the account page.
  if (action === "delete") ctx.callbackUrl = back
  // The undo link of a security notice works signed out (lib/notices/undo-email.ts).
  if (action === "undo-email") return undoEmailAction(ctx)
  try {
    const holder = await holderFor(ctx, action)
    const answered = await perform(ctx, holder, action)
    if (answered) return answered
  } catch (error) {
    if (!ctx.wantsJson && !ctx.request.serverAction && error instanceof AuthError && EXPLAINED.has(error.type) && (action !== "delete" || error.type === "LastOwner")) {
      ctx.config.logger.error(error)
      return redirect(`${back}?${new URLSearchParams({ error: error.type })}`)
    }
    throw error
  }
  return ctx.wantsJson ? json({ ok: true }) : redirect(`${back}?${new URLSearchParams({ saved: action ?? "" })}`)
}
