/** `two-factor` and `two-factor/setup` (issue #16): the second segment picks the page; nothing else is routed here. */
import { UnknownAction } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { twoFactorPage, twoFactorSubmit } from "./challenge.js"
import { twoFactorSetupPage, twoFactorSetupSubmit } from "./setup.js"

function route(ctx: RequestContext, challenge: typeof twoFactorPage, setup: typeof twoFactorSetupPage): Promise<ResponseInternal> {
  if (!ctx.config.twoFactor) throw new UnknownAction("No action at two-factor (the twoFactor option is off)")
  const segment = ctx.request.providerId
  if (segment === undefined) return challenge(ctx)
  if (segment === "setup") return setup(ctx)
  throw new UnknownAction("No such two-factor page")
}

export const twoFactorGet = (ctx: RequestContext) => route(ctx, twoFactorPage, twoFactorSetupPage)
export const twoFactorPost = (ctx: RequestContext) => route(ctx, twoFactorSubmit, twoFactorSetupSubmit)
