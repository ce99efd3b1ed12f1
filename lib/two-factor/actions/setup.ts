/**
 * `GET two-factor/setup` (signed-in users, and a sign-in waiting for its required enrolment:
 * lib/two-factor/enrolment.ts; others sign in first and come back): enrolment
 * when two-factor sign-in is off for the user (a new secret as a QR code drawn as inline SVG and
 * as text, and a first code to confirm it), otherwise its management (recovery codes left; new
 * recovery codes or turning it off, each with a current code or a recovery code).
 *
 * `POST two-factor/setup` with `intent`:
 * - `enable`: the code must match the secret offered (carried sealed in the form, 10 minutes);
 *   then the record is stored (secret sealed) with 10 recovery codes, shown once; `twoFactorEnabled`;
 *   a sign-in that waited for this enrolment then starts its session (`amr` with `otp`);
 * - `regenerate`: 10 new recovery codes replace the old ones, shown once;
 * - `disable`: the record and codes are removed; `twoFactorDisabled`; from the account page
 *   (`callbackUrl` is it), back there with the notice that it is off;
 * - `download`: the codes just shown, as a text file (`codesToken`: them, sealed in the page for
 *   10 minutes; issue #26), so the page needs no script and no `data:` URL.
 */
import QRCode from "qrcode"
import type { Adapter, AdapterUser } from "../../adapters.js"
import { AuthError, InvalidRequest, RateLimited } from "../../errors.js"
import { TwoFactorCodeInvalid, TwoFactorExpired } from "../errors.js"
import type { ResponseInternal } from "../../types.js"
import type { RequestContext } from "../../core/context.js"
import { resolveCallbackUrl } from "../../core/callback-url.js"
import { ensureCsrfToken } from "../../core/csrf.js"
import { fireEvent } from "../../core/events.js"
import { bodyString, queryParam } from "../../core/request.js"
import { redirect } from "../../core/response.js"
import { decode, encode } from "../../jwt/encode-decode.js"
import { signinErrorText } from "../../pages/messages.js"
import { pageLocale, pageResponse } from "../../pages/page.js"
import { SETUP_PAGE } from "../pages.js"
import { enforceRateLimit, forgiveIdentifier } from "../../rate-limit/limiter.js"
import { PENDING_SECONDS, TOTP_PERIOD, TOTP_WINDOW } from "../options.js"
import { hashRecoveryCode, newRecoveryCodes } from "../recovery-codes.js"
import { sealSecret } from "../secret-box.js"
import { matchingStep, newSecret, otpauthUri } from "../totp.js"
import { twoFactorRules, verifySecondFactor } from "../verify.js"
import { sendSecurityNotice } from "../../notices/send.js"
import { claimEnrolment, enrollingUser } from "../enrolment.js"
import { startSession } from "../../actions/callback/login.js"
import { holderOrSignIn, isHolder } from "../../session/assurance.js"

type Storage = Required<Pick<Adapter, "getTwoFactor" | "enableTwoFactor" | "replaceRecoveryCodes" | "countRecoveryCodes" | "disableTwoFactor">>
const SETUP_SALT = "gatehouse.two-factor.setup"
const CODES_SALT = "gatehouse.two-factor.codes"
const SHOWN_ON_PAGE = new Set(["TwoFactorCodeInvalid", "TwoFactorCodeReplayed", "RecoveryCodeUsed", "RateLimited"])

const storage = (ctx: RequestContext) => ctx.config.adapter as Storage

function render(ctx: RequestContext, model: Record<string, unknown>, error?: AuthError): ResponseInternal {
  const chosen = pageLocale(ctx)
  const full = { action: `${ctx.baseUrl}/two-factor/setup`, csrfToken: ensureCsrfToken(ctx), ...model, error: error ? signinErrorText(chosen.locale.messages, error.type) : undefined }
  const status = error instanceof RateLimited ? 429 : error ? 400 : 200
  return pageResponse(ctx, SETUP_PAGE, chosen.locale.messages["twoFactor.setup.heading"], full, status, chosen)
}

/** The recovery codes page: the codes, once, with them sealed for the download button. */
async function codesView(ctx: RequestContext, user: AdapterUser, codes: string[], callbackUrl: string, done: "enabled" | "renewed"): Promise<ResponseInternal> {
  const codesToken = await encode({ token: { sub: user.id, codes }, secret: [...ctx.config.secrets], salt: CODES_SALT, maxAge: PENDING_SECONDS })
  return render(ctx, { view: "codes", codes, codesToken, done, callbackUrl })
}

/** `intent=download`: the codes sealed in the page, as a text file; the page again when they expired. */
async function download(ctx: RequestContext, user: AdapterUser): Promise<ResponseInternal> {
  const opened = await decode<{ sub?: string; codes?: unknown }>({ token: bodyString(ctx.request, "codesToken"), secret: [...ctx.config.secrets], salt: CODES_SALT }).catch(() => null)
  const codes = Array.isArray(opened?.codes) && opened.sub === user.id ? opened.codes.filter((code): code is string => typeof code === "string") : []
  if (!codes.length) throw new TwoFactorExpired("The recovery codes can be downloaded only for 10 minutes after they are shown")
  const site = new URL(ctx.baseUrl).host
  const body = `${site}\n${user.email ?? ""}\n\n${codes.join("\n")}\n`
  return {
    status: 200,
    body,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="recovery-codes-${site.replace(/[^A-Za-z0-9.-]/g, "_")}.txt"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  }
}

/** The enrolment form for a new secret (or the same one again, after a wrong code). */
async function enrolView(ctx: RequestContext, user: AdapterUser, callbackUrl: string, secret = newSecret(), error?: AuthError): Promise<ResponseInternal> {
  const issuer = ctx.config.twoFactor?.issuer as string
  const qrSvg = await QRCode.toString(otpauthUri(secret, issuer, user.email || user.name || user.id), { type: "svg", margin: 2, width: 224 })
  const setupToken = await encode({ token: { sub: user.id, totp: secret }, secret: [...ctx.config.secrets], salt: SETUP_SALT, maxAge: PENDING_SECONDS })
  // Groups of four, as authenticator apps accept them typed.
  const shown = secret.match(/.{1,4}/g)?.join(" ") ?? secret
  return render(ctx, { view: "enrol", qrSvg, secret: shown, setupToken, callbackUrl }, error)
}

async function manageView(ctx: RequestContext, user: AdapterUser, callbackUrl: string, error?: AuthError): Promise<ResponseInternal> {
  return render(ctx, { view: "manage", remaining: await storage(ctx).countRecoveryCodes(user.id), callbackUrl }, error)
}

/**
 * The signed-in user, from a recent sign-in that passed the second factor when the user has one
 * (issue #24: enrolling, replacing or turning off two-factor), or the redirect to sign in (again)
 * first and come back here.
 */
async function signedInUser(ctx: RequestContext, callbackUrl: string): Promise<AdapterUser | ResponseInternal> {
  // A sign-in waiting for its required enrolment (issue #24) is accepted here, and only here.
  const enrolling = await enrollingUser(ctx)
  if (enrolling) return enrolling.user
  const back = `${ctx.baseUrl}/two-factor/setup?${new URLSearchParams({ callbackUrl })}`
  const holder = await holderOrSignIn(ctx, "recent", "Changing two-factor sign-in", back)
  return isHolder(holder) ? holder.user : holder
}

export async function twoFactorSetupPage(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx, queryParam(ctx.request, "callbackUrl"))
  const user = await signedInUser(ctx, callbackUrl)
  if (!("id" in user)) return user
  if (await storage(ctx).getTwoFactor(user.id)) return manageView(ctx, user, callbackUrl)
  return enrolView(ctx, user, callbackUrl)
}

async function enable(ctx: RequestContext, user: AdapterUser, callbackUrl: string): Promise<ResponseInternal> {
  const opened = await decode<{ sub?: string; totp?: string }>({ token: bodyString(ctx.request, "setupToken"), secret: [...ctx.config.secrets], salt: SETUP_SALT }).catch(() => null)
  if (!opened?.totp || opened.sub !== user.id) throw new TwoFactorExpired("The enrolment form expired or belongs to another user: open the setup page again")
  const secret = opened.totp
  const rules = twoFactorRules(ctx)
  try {
    await enforceRateLimit(ctx.config, "twoFactor", ctx.request.clientAddress, user.id, rules)
    const step = matchingStep(secret, (bodyString(ctx.request, "code") ?? "").replace(/\s/g, ""))
    if (step === null) throw new TwoFactorCodeInvalid("The confirmation code does not match the new secret")
    // The confirming code cannot serve again as a sign-in code.
    await ctx.config.store.claim(`2fa:step:${user.id}:${step}`, TOTP_PERIOD * (TOTP_WINDOW + 2))
    await forgiveIdentifier(ctx.config, "twoFactor", user.id, rules)
  } catch (error) {
    if (!ctx.wantsJson && error instanceof AuthError && SHOWN_ON_PAGE.has(error.type)) return enrolView(ctx, user, callbackUrl, secret, error)
    throw error
  }
  // The sign-in that waited for this enrolment works once (issue #24).
  const enrolment = (await enrollingUser(ctx))?.enrolment
  if (enrolment?.userId === user.id) await claimEnrolment(ctx, enrolment)
  const codes = newRecoveryCodes()
  await storage(ctx).enableTwoFactor({ userId: user.id, secret: await sealSecret(ctx.config, secret), enabledAt: new Date() }, codes.map(hashRecoveryCode))
  await fireEvent(ctx.config, "twoFactorEnabled", { userId: user.id })
  sendSecurityNotice(ctx, user, "twoFactorEnabled")
  if (enrolment?.userId !== user.id) return codesView(ctx, user, codes, callbackUrl, "enabled")
  // ...then its session starts, the code just typed as its second factor; the page leads on.
  const { user: signedIn, account, profile, isNewUser, notice } = enrolment
  const next = await startSession(ctx, { user: signedIn, account, profile, isNewUser, notice }, enrolment.callbackUrl, { amr: [...enrolment.amr, "otp"], authTime: Math.floor(Date.now() / 1000) })
  return codesView(ctx, user, codes, next, "enabled")
}

async function change(ctx: RequestContext, user: AdapterUser, callbackUrl: string, intent: "regenerate" | "disable"): Promise<ResponseInternal> {
  try {
    await verifySecondFactor(ctx, user.id, bodyString(ctx.request, "code") ?? "")
  } catch (error) {
    if (!ctx.wantsJson && error instanceof AuthError && SHOWN_ON_PAGE.has(error.type)) return manageView(ctx, user, callbackUrl, error)
    throw error
  }
  if (intent === "disable") {
    await storage(ctx).disableTwoFactor(user.id)
    await fireEvent(ctx.config, "twoFactorDisabled", { userId: user.id })
    sendSecurityNotice(ctx, user, "twoFactorDisabled")
    const accountPage = `${ctx.baseUrl}/account`
    if (!ctx.wantsJson && callbackUrl.split(/[?#]/)[0] === accountPage) return redirect(`${accountPage}?saved=two-factor-off#security`)
    return render(ctx, { view: "off", callbackUrl })
  }
  const codes = newRecoveryCodes()
  await storage(ctx).replaceRecoveryCodes(user.id, codes.map(hashRecoveryCode))
  sendSecurityNotice(ctx, user, "recoveryCodesReplaced")
  return codesView(ctx, user, codes, callbackUrl, "renewed")
}

export async function twoFactorSetupSubmit(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx, bodyString(ctx.request, "callbackUrl"))
  const user = await signedInUser(ctx, callbackUrl)
  if (!("id" in user)) return user
  const intent = bodyString(ctx.request, "intent")
  if (intent === "download") return download(ctx, user)
  const enrolled = await storage(ctx).getTwoFactor(user.id)
  if (intent === "enable" && !enrolled) return enable(ctx, user, callbackUrl)
  if ((intent === "regenerate" || intent === "disable") && enrolled) return change(ctx, user, callbackUrl, intent)
  throw new InvalidRequest(`two-factor/setup: intent must be ${enrolled ? '"regenerate" or "disable"' : '"enable"'} (got ${JSON.stringify(intent ?? null)})`)
}
