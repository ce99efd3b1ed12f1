/**
 * The storage SCIM provisioning works on (issue #29): the adapter's SCIM methods (checked at
 * start-up when the option is on) and the organization a request names (404 when it is gone).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import type { Adapter } from "../adapters.js"
import { storageOf } from "../organizations/access.js"
import type { AdapterOrganization } from "../organizations/adapter.js"
import type { SCIM_ADAPTER_METHODS } from "./adapter.js"
import { ScimProblem } from "./problem.js"

export type ScimStorage = Required<Pick<Adapter, (typeof SCIM_ADAPTER_METHODS)[number]>>

export function scimStorage(config: ResolvedConfig): ScimStorage {
  return config.adapter as unknown as ScimStorage
}

/** The organization (404 when there is none). */
export async function organizationOf(config: ResolvedConfig, organizationId: string): Promise<AdapterOrganization> {
  const organization = typeof organizationId === "string" && organizationId ? await storageOf(config).getOrganization(organizationId) : null
  if (!organization) throw new ScimProblem(404, "No such organization")
  return organization
}
