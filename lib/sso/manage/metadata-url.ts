/**
 * Fetching an identity provider's metadata from `metadataUrl` (issue #28), through Gatehouse's
 * bounded outbound transport (lib/outbound/transport.ts): https only (http only to this machine,
 * for development and tests), a connect and a total timeout, the body capped at the metadata's
 * size limit, no redirect followed, and a host name that resolves to an internal address refused
 * at connect time (an admin's URL cannot reach the app's private network). Every failure is
 * `InvalidSsoConnection` naming the field.
 */
import { isInternalAddress } from "../../outbound/address.js"
import { call } from "../../outbound/transport.js"
import { InvalidSsoConnection } from "../errors.js"
import { MAX_METADATA_SIZE } from "../saml-metadata.js"
import { url as checkUrl } from "./fields.js"

const LIMITS = Object.freeze({ maxResponseSize: MAX_METADATA_SIZE, connectTimeout: 5_000, timeout: 10_000 })

function loopbackHost(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]"
}

export async function fetchMetadata(value: unknown): Promise<string> {
  const target = new URL(checkUrl(value, "metadataUrl"))
  // A loopback URL was asked for by name (development); any other host must resolve to a public address.
  const refuseAddress = loopbackHost(target.hostname) ? undefined : isInternalAddress
  // An address literal is connected to without a lookup: checked here.
  if (refuseAddress?.(target.hostname)) throw new InvalidSsoConnection("metadataUrl: an internal address is not fetched")
  let response: Response
  try {
    response = await call(target, { method: "GET", headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" } }, LIMITS, { refuseAddress })
  } catch (error) {
    const reason = (error as { type?: string }).type ?? (error as { code?: string }).code ?? "the request failed"
    throw new InvalidSsoConnection(`metadataUrl: the metadata could not be fetched (${reason})`)
  }
  if (response.status !== 200) throw new InvalidSsoConnection(`metadataUrl: the server answered ${response.status}`)
  return response.text()
}
