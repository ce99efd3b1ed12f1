/**
 * The signed-in user an account action works on: the stored user of the request's session (one
 * read, as `authSession` does), with the session's identity (to keep or end it). Signed out (or
 * revoked): `SessionRequired`. Without an adapter there is no stored user to manage:
 * `AccountPageUnavailable`.
 */
import type { Adapter, AdapterUser } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { SessionRequired } from "../errors.js"
import { AccountPageUnavailable } from "./errors.js"
import type { SessionIdentity } from "../session/cookie-strategy.js"

export interface AccountHolder {
  user: AdapterUser
  identity: SessionIdentity
}

export type FullAdapter = Required<Adapter>

export function accountAdapter(config: ResolvedConfig): FullAdapter {
  if (!config.adapter) {
    throw new AccountPageUnavailable("The account page and its actions need an adapter (a database of users); this configuration has none")
  }
  return config.adapter as FullAdapter
}

export async function holderOf(config: ResolvedConfig, identity: SessionIdentity | undefined): Promise<AccountHolder> {
  const adapter = accountAdapter(config)
  const user = identity?.userId ? await adapter.getUser(identity.userId) : null
  if (!identity || !user) throw new SessionRequired("The account actions need a signed-in user")
  return { user, identity }
}
