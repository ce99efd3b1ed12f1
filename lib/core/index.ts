/**
 * `gatehouse/core`: the web-standard entry point. `Auth(request, config)` takes a web Request and
 * returns a web Response, or the internal response record when `config.raw` is the `raw` marker.
 */
import { AuthError, UntrustedHost } from "../errors.js"
import type { AuthAction, AuthConfig, AuthConfigInput, ResponseInternal } from "../types.js"
import { resolveConfig, type ResolvedConfig } from "./config/resolve.js"
import { DEFAULT_BASE_PATH } from "./config/defaults.js"
import { defaultTrustHost, envBasePath, readEnv, setEnvDefaults, type EnvObject } from "./config/env.js"
import { assertBasePath } from "./config/validate.js"
import { dispatch } from "./dispatch.js"
import { publicError } from "./error-outcome.js"
import { createLogger } from "./logger.js"
import { publicMessage } from "./error-messages.js"
import { json } from "./response.js"
import { logUnresolvedError } from "./log-kinds.js"
import { siteOf, TRUSTED } from "./site.js"
import { requestedAsset, toInternalRequest, toWebResponse } from "./web.js"
import { assetResponse } from "../pages/assets.js"
import { answersNotFoundPage, notFoundPage } from "../pages/not-found.js"
import { raw } from "./symbols.js"

export { customFetch, raw, skipCSRFCheck } from "./symbols.js"
export { isAuthAction } from "./actions.js"
export { setEnvDefaults }
export type { EnvObject }

/** Logs an error for a configuration that could not be resolved (so has no logger of its own). */
function logUnresolved(config: unknown, error: unknown): void {
  // A configuration state (MissingSecret...) once per process, without a stack.
  if (!logUnresolvedError(error)) return
  const user = config && typeof config === "object" ? (config as AuthConfig) : undefined
  const logger = createLogger(user?.logLevel ?? "error", user?.logger)
  logger.error(error instanceof Error ? error : new AuthError(String(error)))
}

/** Answers an error raised outside an action: protocol errors as themselves, the rest as Configuration. */
function errorResponse(error: unknown): ResponseInternal {
  const shown = publicError(error)
  const [type, status] = shown.page === undefined ? [shown.type, shown.status] : ["Configuration", 500]
  return json({ error: { type, message: publicMessage(type) } }, status)
}

export async function Auth(request: Request, config: AuthConfigInput & { raw: typeof raw }): Promise<ResponseInternal>
export async function Auth(request: Request, config: AuthConfigInput): Promise<Response>
export async function Auth(request: Request, input: AuthConfigInput): Promise<Response | ResponseInternal> {
  let userConfig: unknown = input
  let config: ResolvedConfig
  try {
    userConfig = typeof input === "function" ? await input(request) : input
    config = resolveConfig(userConfig as object)
  } catch (error) {
    logUnresolved(userConfig, error)
    const response = errorResponse(error)
    return (userConfig as AuthConfig | undefined)?.raw === raw ? response : toWebResponse(response)
  }
  const asset = requestedAsset(request, config)
  const served = asset ? assetResponse(asset) : undefined
  if (served) return config.raw ? served : toWebResponse(served)
  let response: ResponseInternal
  try {
    response = await dispatch(toInternalRequest(request, config), config, { throwErrors: config.raw })
  } catch (error) {
    // Raised before an action ran (unknown path, malformed host) or, with `raw`, by the action.
    if (config.raw && error instanceof AuthError && publicError(error).page !== undefined) throw error
    config.logger.error(error instanceof Error ? error : new AuthError(String(error)))
    // A browser that asked for no action sees the themed 404 page (issue #26); API clients get JSON.
    const header = (name: string) => request.headers.get(name) ?? undefined
    response = answersNotFoundPage(publicError(error).type, header("accept"))
      ? notFoundPage({ config, request: { header } }, config.pages.signIn ?? `${config.basePath === "/" ? "" : config.basePath}/signin`)
      : errorResponse(error)
  }
  return config.raw ? response : toWebResponse(response)
}

/**
 * The URL of an action: AUTH_URL's origin when set; otherwise the request's (X-Forwarded-* first),
 * which needs a trusted host. The base path comes from the config, AUTH_URL's path, or `/auth`.
 */
export function createActionURL(
  action: AuthAction,
  protocol: string,
  headers: Headers | Record<string, string | undefined>,
  envObject: EnvObject,
  config: Pick<AuthConfig, "basePath" | "trustHost">,
): URL {
  const settings = readEnv(envObject)
  const basePath = assertBasePath(config.basePath) ?? envBasePath(settings) ?? DEFAULT_BASE_PATH
  if (!settings.url && !(config.trustHost ?? defaultTrustHost(settings))) {
    throw new UntrustedHost("createActionURL: the host is not trusted; set AUTH_URL or trustHost")
  }
  const bag = headers instanceof Headers ? headers : new Headers(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
  const read = (name: string) => bag.get(name) ?? undefined
  const scheme = protocol.replace(/:$/, "").toLowerCase() === "http" ? "http" : "https"
  const { origin } = siteOf(settings.url, { protocol: scheme, header: read, trustForwarded: TRUSTED })
  return new URL(`${origin}${basePath === "/" ? "" : basePath}/${action}`)
}

// Each capability's action names join `AuthAction` from its own folder (declaration merging in its
// capability.ts): this line brings those declarations into the published types.
export type {} from "../capabilities.js"
