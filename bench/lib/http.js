// Small HTTP helpers for signing in before a load: fetch without following redirects, and a
// cookie jar that keeps name=value pairs from Set-Cookie.
export class CookieJar {
  constructor() {
    this.cookies = new Map()
  }
  /** Takes the Set-Cookie headers of `response` (an expired or empty value removes the cookie). */
  take(response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const at = pair.indexOf("=")
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=thu, 01 jan 1970/i.test(attribute))
      if (!value || expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
  }
}

/** fetch with the jar's cookies, no redirect following; the jar takes the answer's cookies. */
export async function send(jar, url, init = {}) {
  const headers = { ...(init.headers ?? {}) }
  const cookie = jar.header()
  if (cookie) headers.cookie = cookie
  return jar.take(await fetch(url, { ...init, headers, redirect: "manual" }))
}

/** Throws unless GET <origin>/protected with `headers` answers 200 with `email`. */
export async function verifyProtected(origin, headers, email) {
  const response = await fetch(`${origin}/protected`, { headers, redirect: "manual" })
  const text = await response.text()
  if (response.status !== 200 || !text.includes(email)) {
    throw new Error(`GET /protected answered ${response.status} ${text.slice(0, 200)} (expected 200 with ${email})`)
  }
}

/** The values of header `name` in autocannon's onResponse headers (raw names, any case). */
export function headerValues(headers, name) {
  const wanted = name.toLowerCase()
  return Object.entries(headers ?? {})
    .filter(([key]) => key.toLowerCase() === wanted)
    .flatMap(([, value]) => [].concat(value))
}

/** `name=value` pairs of the Set-Cookie headers in autocannon's onResponse headers, for a Cookie header. */
export function cookiePairs(headers) {
  return headerValues(headers, "set-cookie")
    .map((line) => line.split(";")[0])
    .join("; ")
}
