/** The token and address a magic link carries; a link naming no valid address is `Verification`. */
import { Verification } from "../../errors.js"
import type { EmailProviderConfig } from "../types.js"
import { emailIdentifier } from "./identifier.js"

export interface LinkParams {
  token: string | undefined
  email: string | undefined
  callbackUrl: string | undefined
}

export function linkIdentifier(provider: EmailProviderConfig, params: LinkParams): { token: string; identifier: string } {
  if (!params.token || !params.email) throw new Verification("The sign-in link is incomplete")
  try {
    return { token: params.token, identifier: emailIdentifier(provider, params.email) }
  } catch (error) {
    throw new Verification("The sign-in link names an invalid address", { cause: { err: error } })
  }
}
