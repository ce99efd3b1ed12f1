/**
 * A key's last use (issue #31), written at most once a minute per key and process, after the
 * answer's work (never awaited by the request: a slow write delays nobody); the first use of a key
 * fires `api_key.first_used` once (the shared store makes it once across processes).
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { fireEvent } from "../core/events.js"
import type { Adapter } from "../adapters.js"
import type { ApiKeyCaller } from "./caller.js"

const MINUTE = 60_000
const YEAR = 366 * 24 * 60 * 60
const touched = new WeakMap<ResolvedConfig, Map<string, number>>()

function touchedOf(config: ResolvedConfig): Map<string, number> {
  let map = touched.get(config)
  if (!map) {
    map = new Map()
    touched.set(config, map)
  }
  return map
}

async function record(config: ResolvedConfig, caller: ApiKeyCaller, now: number, first: boolean): Promise<void> {
  const { key } = caller
  await (config.adapter as Required<Pick<Adapter, "touchApiKey">>).touchApiKey(key.id, new Date(now))
  if (!first) return
  const { count } = await config.store.hit(`apikey:first:${key.id}`, YEAR)
  if (count === 1) await fireEvent(config, "apiKey", { type: "api_key.first_used", keyId: key.id, userId: key.userId, organizationId: key.organizationId })
}

export function noteUse(config: ResolvedConfig, caller: ApiKeyCaller, now: number): void {
  const map = touchedOf(config)
  const id = caller.key.id
  const last = Math.max(map.get(id) ?? 0, caller.key.lastUsedAt?.getTime() ?? 0)
  if (now - last < MINUTE) return
  if (map.size > 10_000) map.clear()
  map.set(id, now)
  record(config, caller, now, caller.key.lastUsedAt === null).catch((error: unknown) => config.logger.error(error as Error))
}
