/**
 * The passkey ceremonies, with @simplewebauthn/browser loaded only when one runs (the core
 * bundle stays without it): the options from `<base>/webauthn-options/<provider>`, the
 * browser's ceremony, and the fields to POST to `<base>/callback/<provider>`.
 */
import { AuthClientError } from "./errors.js"
import { getJson, type Transport } from "./http.js"

export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function"
}

interface OptionsAnswer {
  action: "authenticate" | "register"
  options: Record<string, unknown>
}

function cancelled(error: unknown): AuthClientError {
  const name = (error as { name?: unknown } | null)?.name
  const type = name === "AbortError" || name === "NotAllowedError" ? "PasskeyCancelled" : "PasskeyFailed"
  return new AuthClientError(type, error instanceof Error ? error.message : String(error), 0, undefined, { cause: error })
}

/** Runs one ceremony; the fields for the callback POST (`action`, `data`). */
export async function passkeyCeremony(transport: Transport, providerId: string, action: "authenticate" | "register", conditional = false, signal?: AbortSignal): Promise<{ action: string; data: string }> {
  const answer = (await getJson(transport, `webauthn-options/${encodeURIComponent(providerId)}?action=${action}`)) as OptionsAnswer
  const browser = await import("@simplewebauthn/browser")
  if (conditional && !(await browser.browserSupportsWebAuthnAutofill())) {
    throw new AuthClientError("PasskeyAutofillUnsupported", "This browser offers no passkeys in autofill", 0)
  }
  const abort = () => browser.WebAuthnAbortService.cancelCeremony()
  if (signal?.aborted) throw new AuthClientError("PasskeyCancelled", "Aborted before it started", 0)
  signal?.addEventListener("abort", abort, { once: true })
  try {
    const response =
      answer.action === "register"
        ? await browser.startRegistration({ optionsJSON: answer.options as never })
        : await browser.startAuthentication({ optionsJSON: answer.options as never, useBrowserAutofill: conditional })
    return { action: answer.action, data: JSON.stringify(response) }
  } catch (error) {
    throw error instanceof AuthClientError ? error : cancelled(error)
  } finally {
    signal?.removeEventListener("abort", abort)
  }
}
