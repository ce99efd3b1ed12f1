/**
 * Dates as the built-in pages show them (issue #26), in the page's language: a date and time
 * ("Nov 27, 2026, 5:02 PM"), and how long ago ("5 minutes ago", "yesterday").
 */

type DateInput = Date | string | number

/** A time from a Date (of any realm), an ISO string or epoch milliseconds; null when it is none. */
export function timeOf(value: unknown): number | null {
  const time =
    typeof (value as Date | null)?.getTime === "function" ? (value as Date).getTime() : typeof value === "string" ? Date.parse(value) : typeof value === "number" ? value : NaN
  return Number.isFinite(time) ? time : null
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>()

function cached<T>(cache: Map<string, T>, locale: string, make: () => T): T {
  let format = cache.get(locale)
  if (!format) {
    format = make()
    if (cache.size < 64) cache.set(locale, format)
  }
  return format
}

/**
 * A date and time in the page's language, medium date and short time:
 * `formatDateTime(date, "en")` is "Nov 27, 2026, 5:02 PM", `formatDateTime(date, "de")` "27.11.2026, 17:02".
 * Returns "" for an invalid date.
 *
 * @param date - a Date, an ISO 8601 string (`SessionInfo.createdAt`) or epoch milliseconds
 * @param locale - a BCP 47 language tag
 * @param timeZone - an IANA time zone (default: the server's)
 */
export function formatDateTime(date: DateInput, locale = "en", timeZone?: string): string {
  const time = timeOf(date)
  if (time === null) return ""
  const key = `${locale}|${timeZone ?? ""}`
  return cached(dateTimeFormats, key, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone })).format(time)
}

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Infinity],
]

/**
 * How long ago (or from now) a time is, in the page's language and the largest fitting unit:
 * "now", "5 minutes ago", "yesterday", "3 weeks ago" (`"vor 5 Minuten"` in German).
 * Returns "" for an invalid date.
 *
 * @param date - a Date, an ISO 8601 string (`SessionInfo.lastSeenAt`) or epoch milliseconds
 * @param locale - a BCP 47 language tag
 * @param now - the time to count from (default: now)
 */
export function formatRelativeTime(date: DateInput, locale = "en", now: DateInput = Date.now()): string {
  const time = timeOf(date)
  const from = timeOf(now)
  if (time === null || from === null) return ""
  let amount = (time - from) / 1000
  const format = cached(relativeFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }))
  if (Math.abs(amount) < 45) return format.format(0, "second")
  for (const [unit, size] of UNITS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit)
    amount /= size
  }
  return ""
}
