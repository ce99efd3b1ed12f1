/**
 * How a configuration check quotes the value it got, in "(got ...)" of an InvalidOption message:
 * short, one line, never throwing (functions, dates, non-finite numbers and cycles included).
 * A file of its own so option files anywhere in lib/ can use it without importing the checks of
 * `validate.ts` (and, through them, the configuration types: an import cycle, issue #25).
 */
export function show(value: unknown): string {
  if (typeof value === "function") return "a function"
  if (typeof value === "number" && !Number.isFinite(value)) return String(value)
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? "invalid" : value.toISOString()})`
  try {
    const text = JSON.stringify(value)
    if (text === undefined) return String(value)
    return text.length > 80 ? `${text.slice(0, 77)}...` : text
  } catch {
    return String(value)
  }
}
