/**
 * Choosing a locale from `Accept-Language` (RFC 9110 §12.5.4), RFC 4647 "lookup" style: ranges
 * by q-value (ties keep the header's order), each tried as written and then with subtags removed
 * from the end (`de-CH` → `de`); `*` and anything unmatched mean the default. One pass over a
 * bounded header, no sorting, no allocation per locale.
 */

/** Longer headers are cut here; browsers send well under 200 characters. */
const MAX_HEADER = 512
/** At most this many ranges are looked at. */
const MAX_RANGES = 24

const RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/** The weight of `;q=…` parameters, or undefined when they are malformed. */
function weight(params: string[]): number | undefined {
  let q = 1
  for (const param of params) {
    const [name, value] = param.split("=", 2).map((part) => part.trim())
    if (name?.toLowerCase() !== "q") continue
    if (value === undefined || !QVALUE.test(value)) return undefined
    q = Number(value)
  }
  return q
}

/** `range` or its nearest shorter form that is in `available` (lower-case keys). */
function lookup<T>(range: string, available: ReadonlyMap<string, T>): T | undefined {
  let tag = range
  for (;;) {
    const hit = available.get(tag)
    if (hit !== undefined) return hit
    const cut = tag.lastIndexOf("-")
    if (cut < 0) return undefined
    tag = tag.slice(0, cut)
  }
}

/**
 * The best entry of `available` for the header, or `fallback`. `available` is keyed by lower-case
 * tags.
 */
export function negotiate<T>(header: string | undefined, available: ReadonlyMap<string, T>, fallback: T): T {
  if (!header) return fallback
  let best: T | undefined
  let bestQ = 0
  const ranges = header.slice(0, MAX_HEADER).split(",", MAX_RANGES)
  for (const entry of ranges) {
    const [rawRange = "", ...params] = entry.split(";")
    const range = rawRange.trim().toLowerCase()
    if (!RANGE.test(range)) continue
    const q = weight(params)
    if (q === undefined || q <= bestQ) continue
    const hit = range === "*" ? fallback : lookup(range, available)
    if (hit === undefined) continue
    best = hit
    bestQ = q
  }
  return best ?? fallback
}
