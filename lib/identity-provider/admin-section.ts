/**
 * The admin page's "OAuth clients" section (issue #32), when the `oidcProvider` option is on: every
 * client (name, id, public or confidential, grant types, redirect URIs, where it comes from), a
 * Rotate form (stored confidential clients) and a Delete form (stored clients) for each, and a
 * form to create one. The forms post to `<base>/admin/<action>` (lib/admin/actions/post.ts, behind
 * the admin guard and the CSRF check), which hands the three actions here; a new or rotated
 * secret is shown once, on its own page (views/oidc-client-secret.ejs), never cached and never in
 * a URL. The helpers (clients.ts) decide again whatever a form sends, and fire the events.
 */
import type { ResponseInternal } from "../types.js"
import type { RequestContext } from "../core/context.js"
import { format, type Messages, type MessageKey } from "../i18n/index.js"
import { capabilityPage } from "../pages/capability-page.js"
import { pageLocale, pageResponse } from "../pages/page.js"
import { formatDateTime } from "../devices/when.js"
import { InvalidOption } from "../errors.js"
import { createOidcClient, deleteOidcClient, listOidcClients, rotateOidcClientSecret, type OidcClientView } from "./clients.js"
import { OidcClientNotFound } from "./errors.js"

/** The admin actions this section's forms post to (`POST admin/<action>`). */
export const OIDC_CLIENT_ACTIONS = new Set(["create-oidc-client", "rotate-oidc-client-secret", "delete-oidc-client"])

/** The refusals the admin page explains in its status line (`oidcProvider.admin.error.<type>`). */
export const OIDC_CLIENT_ERRORS = new Set(["InvalidOption", "OidcClientNotFound"])

const DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"

/** The grant types the create form offers, with their texts; the first two are checked at first. */
const GRANTS: ReadonlyArray<{ value: string; key: MessageKey; checked: boolean }> = [
  { value: "authorization_code", key: "oidcProvider.admin.grant.authorization_code", checked: true },
  { value: "refresh_token", key: "oidcProvider.admin.grant.refresh_token", checked: true },
  { value: "client_credentials", key: "oidcProvider.admin.grant.client_credentials", checked: false },
  { value: DEVICE_CODE, key: "oidcProvider.admin.grant.device_code", checked: false },
]

const ORIGINS: Readonly<Record<OidcClientView["origin"], MessageKey>> = {
  config: "oidcProvider.admin.origin.config",
  registered: "oidcProvider.admin.origin.registered",
  created: "oidcProvider.admin.origin.created",
}

export const OIDC_CLIENT_CREATED_PAGE = capabilityPage(import.meta.url, "oidc-client-secret", "oidcProvider.admin.secret.createdTitle")
export const OIDC_CLIENT_ROTATED_PAGE = capabilityPage(import.meta.url, "oidc-client-secret", "oidcProvider.admin.secret.rotatedTitle")

export interface OidcClientItem {
  clientId: string
  name: string
  idText: string
  public: boolean
  type: string
  grants: string
  redirectUris: string[]
  origin: OidcClientView["origin"]
  originText: string
  created?: string
  createdIso?: string
  /** Stored here (not declared in the configuration): it can be deleted, and rotated when confidential. */
  stored: boolean
}

export interface OidcClientsSection {
  /** `<base>/admin`: the forms post to `<action>/<admin action>`. */
  action: string
  clients: OidcClientItem[]
  grants: Array<{ value: string; label: string; checked: boolean }>
}

function grantText(t: Messages, grant: string): string {
  const found = GRANTS.find((each) => each.value === grant)
  return found ? t[found.key] : grant
}

function itemOf(client: OidcClientView, t: Messages, tag: string): OidcClientItem {
  const isPublic = client.authMethod === "none"
  return {
    clientId: client.clientId,
    name: client.name ?? t["oidcProvider.admin.unnamed"],
    idText: format(t["oidcProvider.admin.id"], { id: client.clientId }),
    public: isPublic,
    type: t[isPublic ? "oidcProvider.admin.type.public" : "oidcProvider.admin.type.confidential"],
    grants: format(t["oidcProvider.admin.grants"], { grants: client.grantTypes.map((grant) => grantText(t, grant)).join(", ") }),
    redirectUris: client.redirectUris,
    origin: client.origin,
    originText: t[ORIGINS[client.origin]],
    ...(client.createdAt && { created: format(t["oidcProvider.admin.created"], { date: formatDateTime(client.createdAt, tag) }), createdIso: client.createdAt.toISOString() }),
    stored: client.origin !== "config",
  }
}

/** The section's data, or undefined when the identity provider is off. */
export async function adminOidcClientsSection(ctx: RequestContext, t: Messages, tag: string): Promise<OidcClientsSection | undefined> {
  if (!ctx.config.oidcProvider) return undefined
  const clients = await listOidcClients(ctx.config)
  return {
    action: `${ctx.baseUrl}/admin`,
    clients: clients.map((client) => itemOf(client, t, tag)),
    grants: GRANTS.map((grant) => ({ value: grant.value, label: t[grant.key], checked: grant.checked })),
  }
}

/** For `GET admin` as JSON: the clients, when the identity provider is on. */
export async function adminOidcClients(ctx: RequestContext): Promise<{ oidcClients?: OidcClientView[] }> {
  return ctx.config.oidcProvider ? { oidcClients: await listOidcClients(ctx.config) } : {}
}

/** A body field as sent (JSON keeps its types; a form sends strings, a repeated field a list). */
function field(ctx: RequestContext, name: string): unknown {
  const body = ctx.request.body as Record<string, unknown> | undefined
  return body && Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined
}

/** A list: JSON's array as sent; a form's one value or repeated values; a text area's lines. */
function listField(ctx: RequestContext, name: string, lines = false): unknown {
  const value = field(ctx, name)
  if (value === undefined || Array.isArray(value)) return value
  if (typeof value !== "string") return value
  return (lines ? value.split(/\r?\n/) : [value]).map((each) => each.trim()).filter(Boolean)
}

function flag(value: unknown): boolean {
  return value === true || value === "true" || value === "on" || value === "yes"
}

function clientIdOf(ctx: RequestContext): string {
  const clientId = field(ctx, "clientId")
  if (typeof clientId !== "string" || !clientId) throw new OidcClientNotFound("No client id was sent")
  return clientId
}

/** The one-time page: the client's id and, for a confidential client, its secret; a link back. */
function secretPage(ctx: RequestContext, client: OidcClientView, clientSecret: string | null, rotated: boolean, back: string): ResponseInternal {
  const chosen = pageLocale(ctx)
  const t = chosen.locale.messages
  const page = rotated ? OIDC_CLIENT_ROTATED_PAGE : OIDC_CLIENT_CREATED_PAGE
  const model = {
    heading: t[page.title],
    name: format(t["oidcProvider.admin.secret.name"], { name: client.name ?? t["oidcProvider.admin.unnamed"] }),
    clientId: client.clientId,
    clientSecret,
    backUrl: back,
  }
  const response = pageResponse(ctx, page, t[page.title], model, 200, chosen)
  return { ...response, headers: { ...response.headers, "Cache-Control": "no-store" } }
}

export interface OidcClientAnswer {
  json: Record<string, unknown>
  /** The one-time secret page (create, rotate). */
  page?: ResponseInternal
  /** Where a form goes back to (delete). */
  back?: string
}

/**
 * `POST admin/<action>` for this section, by `adminId` (the guard passed): `{ client, clientSecret }`
 * (create, rotate) with the one-time page, or `{ deleted: true }` going back to `back`. Bad input
 * throws `InvalidOption`; a client declared in the configuration or unknown, `OidcClientNotFound`.
 */
export async function oidcClientAction(ctx: RequestContext, action: string, adminId: string, back: string): Promise<OidcClientAnswer> {
  const { config } = ctx
  switch (action) {
    case "create-oidc-client": {
      const input = {
        name: field(ctx, "name") as string,
        redirectUris: listField(ctx, "redirectUris", true) as string[] | undefined,
        grantTypes: listField(ctx, "grantTypes") as string[] | undefined,
        public: flag(field(ctx, "public")),
      }
      const { client, clientSecret } = await createOidcClient(config, input, adminId)
      return { json: { client, clientSecret }, page: secretPage(ctx, client, clientSecret, false, back) }
    }
    case "rotate-oidc-client-secret": {
      const clientId = clientIdOf(ctx)
      const { clientSecret } = await rotateOidcClientSecret(config, clientId, adminId)
      const client = (await listOidcClients(config)).find((each) => each.clientId === clientId && each.origin !== "config")
      if (!client) throw new OidcClientNotFound("No stored client has this id")
      return { json: { client, clientSecret }, page: secretPage(ctx, client, clientSecret, true, back) }
    }
    case "delete-oidc-client":
      await deleteOidcClient(config, clientIdOf(ctx), adminId)
      return { json: { deleted: true }, back }
    default:
      throw new InvalidOption(`No client action ${action}`)
  }
}
