/**
 * Sending a mail (a sign-in link, a password mail), traced: a `gatehouse.mail.send` span with the
 * provider and the recipient's domain only (never the address, the link or the code).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { ATTR } from "./names.js"
import { SpanKind, traced } from "./span.js"

/** The part after the last `@`, lower case; undefined when there is none. */
export function emailDomain(address: string): string | undefined {
  const at = address.lastIndexOf("@")
  return at < 0 || at === address.length - 1 ? undefined : address.slice(at + 1).toLowerCase()
}

export function traceMail<T>(config: ResolvedConfig, providerId: string, to: string, send: () => Promise<T>): Promise<T> {
  const telemetry = config.telemetry
  if (!telemetry) return send()
  const domain = emailDomain(to)
  const attributes = { [ATTR.providerId]: providerId, ...(domain && { [ATTR.mailDomain]: domain }) }
  return traced(telemetry, { name: "gatehouse.mail.send", kind: SpanKind.CLIENT, attributes }, send)
}
