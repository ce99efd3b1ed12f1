/**
 * The `organizations` option (issue #27), checked and resolved once with the configuration. Off
 * unless given; `organizations: true` (or `{}`) turns it on with the built-in roles. A mistake
 * throws `InvalidOption` naming the option; an adapter without the storage methods throws
 * `MissingAdapterMethods` naming the ones it lacks.
 */
import { InvalidOption, MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { Adapter } from "../adapters.js"
import type { User } from "../base-types.js"
import type { OrganizationsOptions, ResolvedOrganizations } from "./settings.js"
import type { EmailProviderConfig, Provider } from "../providers/types.js"
import { ORGANIZATION_ADAPTER_METHODS } from "./adapter.js"
import type { SessionFacts } from "../core/config/resolved.js"
import { attachOrganization } from "./session-fact.js"
import { flatten, ROLE_NAME, roleBook } from "./roles.js"

export type { InvitationMail, OrganizationsOptions, ResolvedOrganizations } from "./settings.js"

const DAY = 24 * 60 * 60

function permissionsOf(path: string, value: unknown): string[] {
  const list = flatten(value)
  if (!list) throw new InvalidOption(`${path} must map resources to lists of actions, such as { project: ["read", "write"] } (got ${JSON.stringify(value)})`)
  return list
}

function assertStorage(adapter: Adapter | undefined): void {
  if (!adapter) throw new MissingAdapter("organizations needs an adapter (organizations, members and invitations are stored)")
  const missing = ORGANIZATION_ADAPTER_METHODS.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`organizations needs these adapter methods, which the adapter lacks: ${missing.join(", ")}`)
}

export function resolveOrganizations(option: unknown, adapter: Adapter | undefined, providers: readonly Provider[]): ResolvedOrganizations | undefined {
  if (option === undefined || option === false) return undefined
  if (option !== true && (!option || typeof option !== "object" || Array.isArray(option))) {
    throw new InvalidOption(`organizations must be true or an object such as { roles: { member: { project: ["read"] } } } (got ${JSON.stringify(option)})`)
  }
  const given = (option === true ? {} : option) as OrganizationsOptions
  const roles: Record<string, string[]> = {}
  if (given.roles !== undefined) {
    if (!given.roles || typeof given.roles !== "object" || Array.isArray(given.roles)) throw new InvalidOption(`organizations.roles must be an object of roles (got ${JSON.stringify(given.roles)})`)
    for (const [name, permissions] of Object.entries(given.roles)) {
      if (!ROLE_NAME.test(name)) throw new InvalidOption(`organizations.roles: "${name}" is not a role name (lower-case letters, digits, - and _, starting with a letter)`)
      roles[name] = permissionsOf(`organizations.roles.${name}`, permissions)
    }
  }
  const extra = given.permissions === undefined ? [] : permissionsOf("organizations.permissions", given.permissions)
  const { customRoles = false, allowCreate = true, invitationMaxAge = 7 * DAY, defaultRole = "member", sendInvitation } = given
  if (typeof customRoles !== "boolean") throw new InvalidOption(`organizations.customRoles must be a boolean (got ${JSON.stringify(customRoles)})`)
  if (typeof allowCreate !== "boolean" && typeof allowCreate !== "function") throw new InvalidOption(`organizations.allowCreate must be a boolean or a function of the user (got ${JSON.stringify(allowCreate)})`)
  if (typeof invitationMaxAge !== "number" || !Number.isInteger(invitationMaxAge) || invitationMaxAge < 60 || invitationMaxAge > 90 * DAY) {
    throw new InvalidOption(`organizations.invitationMaxAge must be a whole number of seconds from 60 to 90 days (got ${JSON.stringify(invitationMaxAge)})`)
  }
  if (sendInvitation !== undefined && typeof sendInvitation !== "function") throw new InvalidOption("organizations.sendInvitation must be a function of the mail")
  const book = roleBook(roles, extra)
  if (typeof defaultRole !== "string" || !book.roles.has(defaultRole) || defaultRole === "owner") {
    throw new InvalidOption(`organizations.defaultRole must be a configured role other than owner (got ${JSON.stringify(defaultRole)})`)
  }
  assertStorage(adapter)
  const email = providers.find((provider) => provider.type === "email") as EmailProviderConfig | undefined
  const decide = typeof allowCreate === "function" ? async (user: User) => Boolean(await allowCreate(user)) : async () => allowCreate
  const attach: SessionFacts = (config, jar, set, result) => attachOrganization(config, resolved, jar, set, result)
  const resolved: ResolvedOrganizations = Object.freeze({
    attach,
    book,
    customRoles, allowCreate: decide,
    invitationMaxAge,
    defaultRole,
    sendInvitation,
    email,
  })
  return resolved
}
