/** The optional adapter methods that listing and revoking database sessions need, or a named error saying which are missing. */
import type { Adapter } from "../adapters.js"
import type { ResolvedConfig } from "../core/config/resolved.js"
import { MissingAdapterMethods, SessionTokenError } from "../errors.js"

type SessionMethod = "listSessionsByUserId" | "deleteSessionsByUserId" | "deleteSession"

export function sessionAdapter<M extends SessionMethod>(config: ResolvedConfig, methods: readonly M[]): Required<Pick<Adapter, M>> {
  const adapter = config.adapter
  if (!adapter) throw new SessionTokenError("The database strategy needs an adapter")
  const missing = methods.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(
      `The adapter lacks ${missing.join(", ")}, which listing and revoking database sessions need (Gatehouse's memory, SQL and MongoDB adapters have them; for another adapter, add them)`,
    )
  }
  return adapter as Required<Pick<Adapter, M>>
}

/** The adapter stores Gatehouse's session facts (created, last seen, user agent, address). */
export function storesSessionFacts(config: ResolvedConfig): boolean {
  return typeof config.adapter?.listSessionsByUserId === "function"
}
