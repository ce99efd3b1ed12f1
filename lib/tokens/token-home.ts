/**
 * Where the signed-in user's tokens of one provider live, and how new ones are written back:
 * the account row (an adapter that lists a user's accounts; written with `updateAccountTokens`),
 * else the session cookie (cookie strategy; the refreshed cookie goes on the response).
 */
import type { ServerResponse } from "node:http"
import type { AccountTokenUpdate, AdapterAccount } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { cookieSet } from "../core/context.js"
import { setCookieLines } from "../core/set-cookie.js"
import { MissingAdapterMethods } from "../errors.js"
import { cookiesOf, isSecureRequest } from "../express/request.js"
import { appendSetCookie } from "../express/respond.js"
import type { GatehouseRequest } from "../express/types.js"
import { openSessionToken, writeSessionCookies, type SessionIdentity } from "../session/cookie-strategy.js"
import type { JWT } from "../types.js"
import { runtimeOf } from "../devices/runtime.js"
import { pickTokens, REFRESH_TOKEN_ERROR, tokensInCookie, withTokensInCookie, type ProviderTokens } from "./provider-tokens.js"
import { clearRefused, markRefused } from "./refused-mark.js"

export interface TokenHome {
  kind: "account" | "cookie"
  tokens: ProviderTokens
  /** Stores refreshed tokens (called by the one caller that refreshed, or by each, for cookies). */
  save(tokens: ProviderTokens): Promise<void>
  /** Records that the provider refused the refresh token: the user must sign in again. */
  refused(): Promise<void>
}

function writeCookie(config: ResolvedConfig, req: GatehouseRequest, res: ServerResponse | undefined, token: JWT): Promise<void> {
  if (!res || res.headersSent) return Promise.resolve()
  const set = cookieSet(config, isSecureRequest(req, config))
  return writeSessionCookies(config, cookiesOf(req), set, token).then(({ cookies }) => appendSetCookie(res, setCookieLines(cookies)))
}

/** A cookie session learns that its provider refused the refresh: `error: "RefreshTokenError"` (for the `jwt`/`session` callbacks and the app). */
async function markCookieSession(config: ResolvedConfig, req: GatehouseRequest, change: (token: JWT) => JWT = (token) => token): Promise<void> {
  if (config.session.strategy !== "cookie") return
  const token = await openSessionToken(config, cookiesOf(req), cookieSet(config, isSecureRequest(req, config)))
  if (token) await writeCookie(config, req, req.res, { ...change(token), error: REFRESH_TOKEN_ERROR })
}

async function accountHome(config: ResolvedConfig, req: GatehouseRequest, account: AdapterAccount): Promise<TokenHome> {
  const adapter = config.adapter
  const update = (tokens: AccountTokenUpdate) => {
    if (!adapter?.updateAccountTokens) {
      throw new MissingAdapterMethods("The adapter lacks updateAccountTokens, which storing a refreshed provider token needs (Gatehouse's memory, SQL and MongoDB adapters have it)")
    }
    return adapter.updateAccountTokens({ provider: account.provider, providerAccountId: account.providerAccountId }, tokens)
  }
  return {
    kind: "account",
    tokens: pickTokens(account),
    save: async (tokens) => {
      await update({ ...tokens, expires_at: tokens.expires_at ?? null } as AccountTokenUpdate)
    },
    refused: async () => {
      await update({ refresh_token: null })
      await markCookieSession(config, req)
      // Database sessions: every session of the user shows it, on every process (refused-mark.ts).
      if (config.session.strategy === "database") await markRefused(config, account.userId, account.provider)
    },
  }
}

/** True when the request's database session (as this process just read it) carries `providerId`'s refused refresh. */
function sessionShowsRefusal(config: ResolvedConfig, identity: SessionIdentity, providerId: string): boolean {
  const cached = identity.sessionToken === undefined ? undefined : runtimeOf(config).databaseSessions.get(identity.sessionToken, Date.now())
  return cached?.refused?.includes(providerId) ?? false
}

/** The home of `providerId`'s tokens for the signed-in user, or null when there are none. */
export async function tokenHome(config: ResolvedConfig, req: GatehouseRequest, identity: SessionIdentity, providerId: string): Promise<TokenHome | null> {
  const adapter = config.adapter
  if (adapter?.listAccountsByUserId && identity.userId) {
    const account = (await adapter.listAccountsByUserId(identity.userId)).find((candidate) => candidate.provider === providerId)
    if (account?.access_token) {
      // A refresh token is back (stored by a sign-in, or by the app): the recorded refusal is over.
      if (account.refresh_token && sessionShowsRefusal(config, identity, providerId)) await clearRefused(config, account.userId, providerId)
      return accountHome(config, req, account)
    }
  }
  if (config.session.strategy !== "cookie") return null
  const token = await openSessionToken(config, cookiesOf(req), cookieSet(config, isSecureRequest(req, config)))
  const tokens = token && tokensInCookie(token, providerId)
  if (!token || !tokens?.access_token) return null
  return {
    kind: "cookie",
    tokens,
    save: (fresh) => writeCookie(config, req, req.res, withTokensInCookie(token, providerId, fresh)),
    refused: () => markCookieSession(config, req, (current) => withTokensInCookie(current, providerId, { ...tokens, refresh_token: undefined })),
  }
}
