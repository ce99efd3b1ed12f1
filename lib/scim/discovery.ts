/**
 * The discovery endpoints (RFC 7644 §4, RFC 7643 §5-7): `ServiceProviderConfig` (what this
 * service does: PATCH, filters up to `maxResults`, sorting, ETags; no bulk, no password change;
 * bearer tokens), `ResourceTypes` (User with the enterprise extension, Group) and `Schemas` (the
 * User, Group and EnterpriseUser definitions, compact: the attributes a directory sends).
 */
import type { ResolvedScim } from "./settings.js"
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from "./users.js"
import { GROUP_SCHEMA } from "./group-resource.js"

const SPC_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
const RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
const SCHEMA_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Schema"

export function serviceProviderConfig(settings: ResolvedScim, base: string): Record<string, unknown> {
  return {
    schemas: [SPC_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: settings.maxResults },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [{ type: "oauthbearertoken", name: "OAuth Bearer Token", description: "A SCIM token of the organization, sent as Authorization: Bearer <token>", primary: true }],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
  }
}

export function resourceTypes(base: string): Array<Record<string, unknown>> {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: "User",
      name: "User",
      endpoint: "/Users",
      description: "User Account",
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/User` },
    },
    { schemas: [RESOURCE_TYPE_SCHEMA], id: "Group", name: "Group", endpoint: "/Groups", description: "Group", schema: GROUP_SCHEMA, meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/Group` } },
  ]
}

type Attribute = Record<string, unknown>

/** An attribute definition; the defaults are RFC 7643 §2.2's. */
function attribute(name: string, type: string, more: Partial<Attribute> = {}): Attribute {
  return { name, type, multiValued: false, required: false, caseExact: false, mutability: "readWrite", returned: "default", uniqueness: "none", ...more }
}

const str = (name: string, more: Partial<Attribute> = {}) => attribute(name, "string", more)
const multi = (name: string, subAttributes: Attribute[], more: Partial<Attribute> = {}) => attribute(name, "complex", { multiValued: true, subAttributes, ...more })
const typed = (...types: string[]) => str("type", { canonicalValues: types })
const primary = attribute("primary", "boolean")

const USER_ATTRIBUTES: Attribute[] = [
  str("userName", { required: true, uniqueness: "server" }),
  attribute("name", "complex", { subAttributes: ["formatted", "familyName", "givenName", "middleName", "honorificPrefix", "honorificSuffix"].map((sub) => str(sub)) }),
  ...["displayName", "nickName"].map((name) => str(name)),
  attribute("profileUrl", "reference", { referenceTypes: ["external"] }),
  ...["title", "userType", "preferredLanguage", "locale", "timezone"].map((name) => str(name)),
  attribute("active", "boolean"),
  str("password", { mutability: "writeOnly", returned: "never" }),
  multi("emails", [str("value"), str("display"), typed("work", "home", "other"), primary]),
  multi("phoneNumbers", [str("value"), str("display"), typed("work", "home", "mobile", "fax", "pager", "other"), primary]),
  multi("ims", [str("value"), str("display"), str("type"), primary]),
  multi("photos", [attribute("value", "reference", { referenceTypes: ["external"] }), str("display"), typed("photo", "thumbnail"), primary]),
  multi("addresses", [...["formatted", "streetAddress", "locality", "region", "postalCode", "country"].map((sub) => str(sub)), typed("work", "home", "other"), primary]),
  multi("groups", [str("value", { mutability: "readOnly" }), attribute("$ref", "reference", { referenceTypes: ["Group"], mutability: "readOnly" }), str("display", { mutability: "readOnly" })], { mutability: "readOnly" }),
  ...["entitlements", "roles"].map((name) => multi(name, [str("value"), str("display"), str("type"), primary])),
  multi("x509Certificates", [attribute("value", "binary"), str("display"), str("type"), primary]),
]

const GROUP_ATTRIBUTES: Attribute[] = [
  str("displayName", { required: true, uniqueness: "server" }),
  multi("members", [str("value", { mutability: "immutable", caseExact: true }), attribute("$ref", "reference", { referenceTypes: ["User"], mutability: "immutable" }), str("display", { mutability: "readOnly" })]),
]

const ENTERPRISE_ATTRIBUTES: Attribute[] = [
  ...["employeeNumber", "costCenter", "organization", "division", "department"].map((name) => str(name)),
  attribute("manager", "complex", { subAttributes: [str("value", { caseExact: true }), attribute("$ref", "reference", { referenceTypes: ["User"] }), str("displayName", { mutability: "readOnly" })] }),
]

export function schemas(base: string): Array<Record<string, unknown>> {
  const schema = (id: string, name: string, description: string, attributes: Attribute[]) => ({ schemas: [SCHEMA_SCHEMA], id, name, description, attributes, meta: { resourceType: "Schema", location: `${base}/Schemas/${id}` } })
  return [
    schema(USER_SCHEMA, "User", "User Account", USER_ATTRIBUTES),
    schema(GROUP_SCHEMA, "Group", "Group", GROUP_ATTRIBUTES),
    schema(ENTERPRISE_USER_SCHEMA, "EnterpriseUser", "Enterprise User", ENTERPRISE_ATTRIBUTES),
  ]
}
