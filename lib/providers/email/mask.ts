/**
 * An address as the confirm page shows it: enough for its owner to recognise (`a…@example.com`),
 * not the whole address to whoever sees the screen or the page a scanner fetched.
 */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@")
  if (at <= 0) return "…"
  const local = address.slice(0, at)
  const first = Array.from(local)[0] ?? ""
  return `${first}…${address.slice(at)}`
}
