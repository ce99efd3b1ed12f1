/** The `sso` option and the adapter's SSO and user methods, for the folder's code (issue #28). */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { Adapter } from "../adapters.js"
import { type SSO_ADAPTER_METHODS, type AdapterSsoConnection } from "./adapter.js"
import { SsoConnectionNotFound, SsoUnavailable } from "./errors.js"
import type { ResolvedSso } from "./settings.js"

export type SsoStorage = Required<Pick<Adapter, (typeof SSO_ADAPTER_METHODS)[number] | "getUser" | "getUserByEmail" | "getUserByAccount" | "linkAccount" | "updateUser">>

export function ssoSettings(config: ResolvedConfig): ResolvedSso {
  const settings = config.sso
  if (!settings) throw new SsoUnavailable("Enterprise sign-in is off: set the sso option")
  return settings
}

/** The adapter's methods (checked at start-up when the option is on). */
export function ssoStorage(config: ResolvedConfig): SsoStorage {
  ssoSettings(config)
  return config.adapter as unknown as SsoStorage
}

/** An enabled connection of this type by its id (from a URL): anything else is "not found". */
export async function enabledConnection(config: ResolvedConfig, id: unknown, type?: AdapterSsoConnection["type"]): Promise<AdapterSsoConnection> {
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new SsoConnectionNotFound("No such connection")
  const connection = await ssoStorage(config).getSsoConnection(id)
  if (!connection || !connection.enabled || (type && connection.type !== type)) throw new SsoConnectionNotFound("No such connection, or it is turned off")
  return connection
}
