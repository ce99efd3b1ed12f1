/**
 * The passkey on the two-factor page (issue #16): offered when a passkey provider is configured
 * and the pending user has a passkey (and the first factor was not a passkey). The form runs the
 * usual passkey sign-in ceremony; its callback sees the pending sign-in of the same user and
 * completes it (lib/two-factor/gate.ts) instead of starting a new one.
 */
import type { Adapter } from "../../adapters.js"
import type { RequestContext } from "../../core/context.js"
import { WEBAUTHN_SCRIPT } from "../../pages/assets.js"
import type { PendingSignIn } from "../pending.js"

export interface PasskeyOption {
  scriptUrl: string
  provider: { id: string; action: string; optionsUrl: string; conditional: false }
}

export async function passkeyOption(ctx: RequestContext, pending: PendingSignIn): Promise<PasskeyOption | undefined> {
  const provider = ctx.config.providers.list.find((candidate) => candidate.type === "webauthn")
  const list = (ctx.config.adapter as Adapter | undefined)?.listAuthenticatorsByUserId
  if (!provider || !list || pending.amr.includes("hwk")) return undefined
  const passkeys = await list.call(ctx.config.adapter, pending.userId)
  if (!passkeys.length) return undefined
  return {
    scriptUrl: `${ctx.baseUrl}/assets/${WEBAUTHN_SCRIPT}`,
    provider: { id: provider.id, action: `${ctx.baseUrl}/callback/${provider.id}`, optionsUrl: `${ctx.baseUrl}/webauthn-options/${provider.id}`, conditional: false },
  }
}
