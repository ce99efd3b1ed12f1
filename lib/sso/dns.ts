/**
 * The DNS proof of a domain (issue #28). An organization that claims `example.com` is asked to
 * publish a TXT record `<txtPrefix>.example.com` (default `_gatehouse-challenge`) whose value is
 * `gatehouse-verification=<token>`; the claim is verified when one of that name's records, its
 * strings joined (a long value is split into 255-byte strings), is exactly that value. The lookup
 * goes through the `sso.dns` option's resolver (servers of its own, or a function): a DNS error
 * or no such record is "not proven", never an exception of its own.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { ssoSettings } from "./access.js"

const VALUE_PREFIX = "gatehouse-verification="

/** The name of the TXT record that proves `domain` (`_gatehouse-challenge.example.com`). */
export function txtName(config: ResolvedConfig, domain: string): string {
  return `${ssoSettings(config).txtPrefix}.${domain}`
}

/** The value the record must have. */
export function txtValue(token: string): string {
  return `${VALUE_PREFIX}${token}`
}

/** True when a TXT record of `txtName(domain)` holds exactly `txtValue(token)`. */
export async function domainProven(config: ResolvedConfig, domain: string, token: string): Promise<boolean> {
  const settings = ssoSettings(config)
  const name = txtName(config, domain)
  const expected = txtValue(token)
  let records: string[][]
  try {
    records = await settings.resolveTxt(name)
  } catch (error) {
    config.logger.debug(`sso: TXT lookup of ${name} failed: ${(error as { code?: string }).code ?? (error as Error).message}`)
    return false
  }
  if (!Array.isArray(records)) return false
  return records.some((record) => (Array.isArray(record) ? record.join("") : String(record)) === expected)
}
