/**
 * Server helpers for apps that draw their own account page (issue #15), on the app's routes:
 *
 *   app.post("/settings/github/disconnect", async (req, res) => { await unlinkAccount(req, res, config, "github"); res.redirect("/settings") })
 *   app.post("/settings/delete", async (req, res) => { await deleteAccount(req, res, config); res.redirect("/") })
 *
 * They run the same actions as the built-in page's forms (`POST account/unlink`,
 * `POST account/delete`), as server actions: no CSRF token is expected, a cross-site POST is still
 * refused. A refusal is thrown as its named error (`SessionRequired`, `LastSignInMethod`,
 * `SignInMethodNotFound`, `RecentSignInRequired`). Deleting also clears the session cookie on `res`.
 */
import type { AuthConfigInput } from "../types.js"
import { dispatch } from "../core/dispatch.js"
import { setCookieLines } from "../core/set-cookie.js"
import { resolveFor } from "../express/config.js"
import { toInternalRequest } from "../express/request.js"
import { appendSetCookie } from "../express/respond.js"
import type { GatehouseRequest, GatehouseResponse } from "../express/types.js"

async function run(req: GatehouseRequest, res: GatehouseResponse, input: AuthConfigInput, action: string, body: Record<string, unknown>): Promise<void> {
  const config = await resolveFor(req, input)
  const request = toInternalRequest(req, config, { action: "account", providerId: action, method: "POST", basePath: config.basePath, body, serverAction: true })
  const response = await dispatch(request, config, { throwErrors: true })
  appendSetCookie(res, setCookieLines(response.cookies))
}

/** Unlinks the signed-in user's account of `provider` (never their last way to sign in). */
export async function unlinkAccount(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput, provider: string): Promise<void> {
  await run(req, res, config, "unlink", { provider })
}

/** Deletes the signed-in user (after a sign-in within 10 minutes), ends their sessions, signs this browser out. */
export async function deleteAccount(req: GatehouseRequest, res: GatehouseResponse, config: AuthConfigInput): Promise<void> {
  await run(req, res, config, "delete", { confirm: "yes" })
}
