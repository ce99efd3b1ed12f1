/**
 * The one interface between the core and a capability (issue #25). A capability (the device list,
 * two-factor sign-in, organizations, ...) lives in one folder under `lib/` and exports one object
 * of this shape; `lib/capabilities.ts` lists them, and the core iterates that list: it never names
 * a capability. What a capability brings:
 * - `routes`: its actions under the base path, per method: the handler, whether the path names a
 *   second segment, the CSRF check, whether errors are always JSON (exactly the core's own route
 *   table entries, lib/core/dispatch.ts);
 * - `outcomes`: how each of its error types is answered (lib/core/error-outcome.ts), and what an
 *   API client is told of it (lib/core/error-messages.ts);
 * - `onEvent`, `onActionError`: told of each event and of what each action throws (the audit
 *   trail records them); the core keeps the list of those that listen, built once;
 * - `auditTypes`, `auditEvents`: its audit record types, and the records its events become (the
 *   audit trail, lib/audit/, writes them when `events.audit` is set); the types join `AuditType`
 *   from its folder (`interface AuditTypes`, lib/audit/types.ts);
 * - `options`: its options, checked and resolved once with the configuration (never per request);
 *   their types join `AuthConfig` from its folder (`interface CapabilityConfigOptions`, lib/types.ts);
 * - `events`: the names of the events it fires, accepted in the `events` option; their types join
 *   `EventCallbacks` from its folder (`interface CapabilityEvents`, lib/callbacks.ts);
 * - `texts`: its texts in every built-in language (its folder's `texts/`), merged into the built-in
 *   catalogs once per process (the resolver hands them to lib/i18n, lib/core/built-in-texts.ts);
 *   their keys join `MessageKey` from its folder (`interface CapabilityMessages`, lib/i18n/text-types.ts).
 *   Its sign-in page errors are its texts `signin.error.<Type>`, its error page's
 *   `error.<Type>.heading` and `.message`.
 * Handlers are loaded on first use (`lazy`), so a capability costs nothing until one of its
 * actions is asked for, and a heavy library it needs is `import()`ed then, never at start-up.
 *
 * The public name of a capability's action joins `AuthAction` by declaration merging from the
 * capability's own folder (`declare module "../types.js" { interface CapabilityActions { ... } }`).
 */
import type { AuditRecord, AuditType, AuthConfig, CapabilityConfigOptions, CapabilityPages, EventCallbacks, ResponseInternal } from "../types.js"
import type { Provider } from "../providers/types.js"
import type { Adapter } from "../adapters.js"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RequestContext } from "./context.js"
import type { CapabilityConfig, ResolvedConfig } from "./config/resolved.js"
import type { WarningCode } from "../warnings.js"
import type { TextsByLanguage } from "../i18n/text-types.js"
import type { MessageKey } from "../i18n/en.js"

export type Handler = (ctx: RequestContext, provider: Provider) => ResponseInternal | Promise<ResponseInternal>

export interface Route {
  handler: Handler
  /** The path names a provider (`/signin/github`): optional or required. */
  provider?: "optional" | "required"
  /** A state-changing POST: needs the CSRF token (for these provider types, when a function). */
  csrf?: boolean | ((provider: Provider) => boolean)
  /** An API endpoint: errors are always answered as JSON. */
  api?: boolean
  /** GET only: also answers HEAD (only where a GET changes nothing). */
  head?: boolean
  /**
   * The handler reads the body itself (`ctx.request.readBody`), so that a body the core would
   * refuse (too large, malformed) is answered in the handler's own format (SCIM's errors).
   */
  ownBody?: boolean
}

/** The methods a route may answer: a protocol of its own (SCIM) uses PUT, PATCH and DELETE too. */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

export type Routes = Partial<Record<RouteMethod, Route>>

/** How an error type is answered: a page (`signIn`, `error`, `verifyRequest`) with `?error=`, or in place (no page). */
export interface Outcome {
  status: number
  page?: "signIn" | "error" | "verifyRequest"
  /** The `error` query value, when not the type itself. */
  value?: string
  /**
   * What an API client is told (the JSON body's `message`, in English): a text of the catalogs by
   * its key, or words of its own. Without it, a type shown on the sign-in or error page is told
   * that page's text (`signin.error.<Type>`, `error.<Type>.message`), any other the generic one.
   */
  message?: { key: MessageKey } | { text: string }
}

/** What a capability's options are resolved with, beside the app's configuration. */
export interface OptionsContext {
  /** The adapter as given (checked to be an object, not yet wrapped). */
  readonly adapter?: Adapter
  /** The providers, checked and completed. */
  readonly providers: readonly Provider[]
  readonly production: boolean
  readonly warnOnce: (code: WarningCode) => void
}

/**
 * A capability's options, checked and resolved by lib/core/config/resolve.ts once per configuration
 * object, in the order of lib/capabilities.ts. A mistake throws a named error (`InvalidOption`, ...)
 * that names the option.
 */
export interface CapabilityOptions {
  /** Its top-level options (`twoFactor`), declared on `AuthConfig` from its folder (`CapabilityConfigOptions`). */
  readonly names?: readonly (keyof CapabilityConfigOptions)[]
  /** Its pages an app may replace (`pages.signUp`), declared on `PagesOptions` from its folder (`CapabilityPages`). */
  readonly pages?: readonly (keyof CapabilityPages)[]
  /** Checks what this capability reads from one provider, after the provider's own checks; `path` is `providers[0] ("github")`. */
  readonly checkProvider?: (provider: Provider, path: string) => void
  /**
   * Its fields of the resolved configuration (`config.twoFactor`), declared from its folder:
   * `declare module "../core/config/resolved.js" { interface CapabilityConfig { ... } }`.
   */
  readonly resolve?: (config: AuthConfig, context: OptionsContext) => Partial<CapabilityConfig>
}

/**
 * A protocol of its own that takes the raw Node request under one path segment of the router
 * (`<base>/oidc/...`: the identity provider's `oidc-provider`, a Koa app): the router hands it the
 * request before any action is parsed, with the path after the segment.
 */
export interface Mount {
  /** The segment for this configuration (`"oidc"`), or undefined when the capability is off. */
  segment(config: ResolvedConfig): string | undefined
  /**
   * Answers the request. `ctx` is the request as every action sees it (its action is the
   * segment); `raw` the Node request and response, `rest` the path after the segment (`/token`,
   * or "" for the segment itself), `mountPath` the path up to and including the segment.
   */
  handle(ctx: RequestContext, raw: { readonly req: IncomingMessage; readonly res: ServerResponse; readonly rest: string; readonly mountPath: string }): Promise<void>
}

export interface Capability {
  /** A short name, for logs and the map (lib/README.md). */
  readonly name: string
  /** Its raw-request protocol under a path segment of the router, when it has one (lib/express/router.ts). */
  readonly mount?: Mount
  /** Action name -> its routes. A name may be taken once across the core and every capability. */
  readonly routes?: Readonly<Record<string, Routes>>
  /** Actions whose path has a second segment (`sessions/revoke`): the handler checks it. */
  readonly subPaths?: readonly string[]
  /**
   * Actions whose path goes on (`sso/saml/<connection>/acs`, `scim/v2/<organization>/Users`): the
   * handler gets the segments after the action joined by "/" as `providerId` and checks them.
   */
  readonly deepPaths?: readonly string[]
  /** Error type -> outcome, for the errors this capability throws. */
  readonly outcomes?: Readonly<Record<string, Outcome>>
  /**
   * Its texts: by language tag (`en` names the keys), then by key. The resolver hands them to
   * lib/i18n, which merges them into the built-in catalogs once per process; the keys join
   * `MessageKey` from its folder (`declare module "../i18n/text-types.js" { interface CapabilityMessages extends TextsOf<typeof en> {} }`).
   */
  readonly texts?: TextsByLanguage
  /** Its options (the `twoFactor` option, a provider's `code`, ...): checked and resolved at start-up. */
  readonly options?: CapabilityOptions
  /** The adapter methods it adds (declared on `Adapter` from its folder): wrapped like the core's (AdapterError, logs, traces). */
  readonly adapterMethods?: readonly (keyof Adapter)[]
  /**
   * The events it fires, accepted in the `events` option (lib/core/config/resolve.ts); their types
   * join `EventCallbacks` from its folder: `declare module "../callbacks.js" { interface CapabilityEvents { ... } }`.
   */
  readonly events?: readonly (keyof EventCallbacks)[]
  /**
   * Its audit record types, for the README's table (the audit trail lists the core's); they join
   * `AuditType` from its folder, made from this list:
   * `declare module "../audit/types.js" { interface AuditTypes extends Record<(typeof TWO_FACTOR_AUDIT_TYPES)[number], true> {} }`.
   */
  readonly auditTypes?: readonly AuditType[]
  /** What its events are recorded as (each event is described by one capability): the audit trail's `onEvent` is handed the one fired. */
  readonly auditEvents?: AuditEvents
  /** Told of each event, before the app's handler (lib/core/events.ts), with the event's `auditEvents` entry. Synchronous; must not throw. */
  readonly onEvent?: EventHook
  /** Told of whatever an action threw, before it is answered (lib/core/dispatch.ts). Synchronous; must not throw. */
  readonly onActionError?: (ctx: RequestContext, error: unknown) => void
}

type EventMessage<Name extends keyof EventCallbacks> = Parameters<NonNullable<EventCallbacks[Name]>>[0]

/**
 * An audit record as an event (`auditEvents`) or the code writing it (lib/audit/emit.ts) gives it:
 * its type and fields; time, ip, user agent and request id are filled in, `outcome` is "success"
 * unless given.
 */
export type AuditEntry = Pick<AuditRecord, "type"> & Partial<Pick<AuditRecord, "outcome" | "reason" | "userId" | "provider" | "ip" | "userAgent" | "requestId">> & Record<string, unknown>

/** Event name -> the record it becomes; only identifiers go in, never the event's tokens or profile. Called only with `events.audit`. */
export type AuditEvents = { readonly [Name in keyof EventCallbacks]?: (message: EventMessage<Name>) => AuditEntry }

/**
 * `fields`: what the code firing the event adds to what is recorded of it (a back-channel
 * revocation says so); `record`: what the event is recorded as, when a capability says (`auditEvents`).
 */
export type EventHook = <Name extends keyof EventCallbacks>(
  config: ResolvedConfig,
  name: Name,
  message: EventMessage<Name>,
  fields?: Record<string, unknown>,
  record?: AuditEvents[Name],
) => void

/**
 * A handler loaded on first use: `lazy(() => import("./actions/list.js"), "listSessionsAction")`.
 * The module is imported once (the promise is kept); later calls go straight to the function.
 */
export function lazy<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Handler {
  let loaded: Handler | undefined
  let loading: Promise<Handler> | undefined
  return (ctx, provider) => {
    if (loaded) return loaded(ctx, provider)
    loading ??= load().then(
      (module) => {
        const found = module[name]
        if (typeof found !== "function") throw new TypeError(`${name} is not a handler of its module`)
        loaded = found as Handler
        return loaded
      },
      (error: unknown) => {
        // Not kept: the next request tries the import again.
        loading = undefined
        throw error
      },
    )
    return loading.then((handler) => handler(ctx, provider))
  }
}
