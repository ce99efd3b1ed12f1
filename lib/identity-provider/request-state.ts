/**
 * What mount.ts learns of a request before `oidc-provider` (a Koa app) takes it, for the code
 * `oidc-provider` calls back with only its own context (`koa.req` is the same Node request): the
 * request as Gatehouse's actions see it (to render pages in the request's language and theme) and
 * who is signed in to the app (the provider's login check). Kept by request, never beyond it.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RequestContext } from "../core/context.js"
import { setCookieLines } from "../core/set-cookie.js"

interface State {
  ctx: RequestContext
  /** The app's signed-in user, null for nobody, undefined when not read (a machine endpoint). */
  userId: string | null | undefined
}

const states = new WeakMap<IncomingMessage, State>()

export function rememberRequest(req: IncomingMessage, ctx: RequestContext, userId: string | null | undefined): void {
  states.set(req, { ctx, userId })
}

/** The request's Gatehouse context (set by mount.ts for every request the provider gets). */
export function contextOf(req: IncomingMessage): RequestContext | undefined {
  return states.get(req)?.ctx
}

/** Who is signed in to the app on this request (null: nobody; undefined: not known). */
export function gatehouseUserOf(req: IncomingMessage): string | null | undefined {
  return states.get(req)?.userId
}

/**
 * RP-initiated logout at the provider (`end_session.success`): the browser is signed out of the
 * app too, as the sign-out action does it (the session ended everywhere, its cookies cleared).
 */
export async function endAppSession(koa: { req: IncomingMessage; res: ServerResponse }): Promise<void> {
  const ctx = contextOf(koa.req)
  if (!ctx || !states.get(koa.req)?.userId) return
  const { signOut } = await import("../actions/signout.js")
  await signOut(ctx)
  const lines = setCookieLines(ctx.outCookies)
  if (lines.length && !koa.res.headersSent) koa.res.appendHeader("Set-Cookie", lines)
}
