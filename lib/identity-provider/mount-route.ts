/**
 * The provider's place in the router (lib/core/capability.ts `Mount`): `<base>/<path>/...` when
 * the option is on. The handler (mount.ts, and with it `oidc-provider`) is imported on the first
 * such request.
 */
import type { Mount } from "../core/capability.js"

let handler: Promise<Mount["handle"]> | undefined

export const identityProviderMount: Mount = {
  segment: (config) => config.oidcProvider?.path,
  handle: (ctx, raw) => {
    handler ??= import("./mount.js").then(
      (module) => module.handleProviderRequest,
      (error: unknown) => {
        handler = undefined
        throw error
      },
    )
    return handler.then((handle) => handle(ctx, raw))
  },
}
