/**
 * The `notices` option (issue #24), resolved once at start-up: how security notices go out, and
 * how long the undo link of an email change works. A notice goes through the app's own
 * `notices.sendMail` when given, else through the first email provider that has a `server` (the
 * magic-link provider, or the Password provider's `email`). With neither, notices are skipped,
 * which `notices-no-mail` says once at start-up (for apps that store users); `notices: false`
 * turns them off without the warning.
 */
import { InvalidOption } from "../errors.js"
import type { Awaitable } from "../base-types.js"
import type { EmailProviderConfig, Provider } from "../providers/types.js"
import type { WarningCode } from "../warnings.js"

/** What a notice is about. */
export type NoticeKind =
  | "emailChanged"
  | "passwordChanged"
  | "passwordReset"
  | "twoFactorEnabled"
  | "twoFactorDisabled"
  | "recoveryCodesReplaced"
  | "passkeyAdded"
  | "methodLinked"
  | "twoFactorLocked"

/** One notice, ready to send (for `notices.sendMail`). */
export interface NoticeMail {
  kind: NoticeKind
  to: string
  subject: string
  text: string
  html: string
  /** The mail's link: the undo link of an email change, else the account page. */
  url: string
}

export interface NoticesOptions {
  /** Sends a notice yourself (instead of the email provider's server). */
  sendMail?: (mail: NoticeMail) => Awaitable<void>
  /** Seconds the undo link of an email change works. Default 604800 (7 days); 3600 to 30 days. */
  undoWindow?: number
}

export interface ResolvedNotices {
  readonly sendMail?: NoticesOptions["sendMail"]
  /** The provider whose server sends them, when there is no `sendMail`. */
  readonly provider?: EmailProviderConfig
  /** false: `notices: false`, or no way to send mail. */
  readonly enabled: boolean
  readonly undoWindow: number
}

export const DEFAULT_UNDO_WINDOW = 7 * 24 * 60 * 60

const invalid = (rule: string, value: unknown): never => {
  throw new InvalidOption(`notices${rule} (got ${typeof value === "function" ? "a function" : JSON.stringify(value)})`)
}

/** An email provider with a server to send through: the magic-link one, else the Password provider's. */
function mailingProvider(providers: readonly Provider[]): EmailProviderConfig | undefined {
  const withServer = (provider: EmailProviderConfig | undefined) => (provider?.type === "email" && provider.server ? provider : undefined)
  for (const provider of providers) {
    const found = withServer(provider as EmailProviderConfig)
    if (found) return found
  }
  for (const provider of providers) {
    const found = withServer((provider as { password?: { email?: EmailProviderConfig } }).password?.email)
    if (found) return found
  }
  return undefined
}

export function resolveNotices(option: unknown, providers: readonly Provider[], storesUsers: boolean, warnOnce: (code: WarningCode) => void): ResolvedNotices {
  if (option === false) return Object.freeze({ enabled: false, undoWindow: DEFAULT_UNDO_WINDOW })
  if (option !== undefined && (typeof option !== "object" || option === null || Array.isArray(option))) invalid(" must be false or { sendMail?, undoWindow? }", option)
  const given = (option ?? {}) as NoticesOptions
  for (const key of Object.keys(given)) if (key !== "sendMail" && key !== "undoWindow") invalid(`.${key} is not an option (expected sendMail, undoWindow)`, key)
  if (given.sendMail !== undefined && typeof given.sendMail !== "function") invalid(".sendMail must be a function", given.sendMail)
  const undoWindow = given.undoWindow ?? DEFAULT_UNDO_WINDOW
  if (typeof undoWindow !== "number" || !Number.isInteger(undoWindow) || undoWindow < 3600 || undoWindow > 30 * 86_400) {
    invalid(".undoWindow must be whole seconds from 3600 to 2592000", undoWindow)
  }
  const provider = given.sendMail ? undefined : mailingProvider(providers)
  const enabled = Boolean(given.sendMail || provider)
  if (!enabled && storesUsers) warnOnce("notices-no-mail")
  return Object.freeze({ sendMail: given.sendMail, provider, enabled, undoWindow })
}
