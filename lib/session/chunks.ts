/**
 * Cookies over the browser's 4 kB limit are split into `<name>.0`, `<name>.1`, ... and put back
 * together on read. Only exact chunk names are read, in index order, never by prefix matching.
 */
import { serialize } from "cookie"
import { SessionTokenError } from "../errors.js"
import type { Cookie, CookieOption } from "../types.js"

/** The whole `Set-Cookie` line (name, value, attributes) stays within what browsers keep. */
export const MAX_SET_COOKIE_LENGTH = 4096
/** More chunks than this (about 40 kB) is not a session we wrote. */
export const MAX_CHUNKS = 10

export type CookieJar = Readonly<Record<string, string | undefined>>

/**
 * `<name>.0` ... `<name>.<MAX_CHUNKS>`, made once per cookie name: every request looks several of
 * them up, and a string kept keeps its hash (no new string to build and hash per lookup). Names
 * come from the configuration, so there are few; the memo stops growing past `MAX_NAMED` anyway.
 */
const MAX_NAMED = 100
const chunkNameLists = new Map<string, readonly string[]>()

function chunkNames(name: string): readonly string[] {
  let names = chunkNameLists.get(name)
  if (!names) {
    names = Array.from({ length: MAX_CHUNKS + 1 }, (_, i) => `${name}.${i}`)
    if (chunkNameLists.size < MAX_NAMED) chunkNameLists.set(name, names)
  }
  return names
}

/**
 * The value of cookie `name`, reassembled from chunks if needed. When the whole cookie and chunks
 * are both present, or the chunks have a gap, someone else wrote some of them: nothing is
 * returned (signed out) rather than guessing which is genuine.
 */
export function readChunked(cookies: CookieJar, name: string): string | undefined {
  const names = chunkNames(name)
  const whole = cookies[name]
  const first = cookies[names[0] as string]
  if (typeof first !== "string") {
    if (typeof whole !== "string" || cookies[names[1] as string] !== undefined) return undefined
    return whole
  }
  if (whole !== undefined) return undefined
  let value = first
  let index = 1
  for (; index < MAX_CHUNKS; index++) {
    const chunk = cookies[names[index] as string]
    if (typeof chunk !== "string") break
    value += chunk
  }
  for (let later = index + 1; later <= MAX_CHUNKS; later++) {
    if (cookies[names[later] as string] !== undefined) return undefined
  }
  return index === MAX_CHUNKS && cookies[names[MAX_CHUNKS] as string] !== undefined ? undefined : value
}

/**
 * Names of the cookie and of each chunk of it present in the request (to clear them): exact
 * names only, up to one past the largest chunk index Gatehouse writes. Junk cookies beyond that
 * are not ours and get no clearing line each.
 */
export function presentNames(cookies: CookieJar, name: string): string[] {
  const names = cookies[name] === undefined ? [] : [name]
  for (const chunk of chunkNames(name)) if (cookies[chunk] !== undefined) names.push(chunk)
  return names
}

export function clearCookie(name: string, options: CookieOption["options"]): Cookie {
  return { name, value: "", options: { ...options, maxAge: 0, expires: new Date(0) } }
}

/** Characters `serialize` leaves as they are (encodeURIComponent's unreserved set). */
const UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]*$/

/**
 * Splits `value` into pieces whose percent-encoded length is at most `size`, never cutting a
 * character (or its %XX sequence) in two. Session JWEs are base64url, so the fast path applies.
 */
function split(value: string, size: number): string[] {
  if (UNRESERVED.test(value)) {
    const pieces: string[] = []
    for (let start = 0; start < value.length; start += size) pieces.push(value.slice(start, start + size))
    return pieces
  }
  const pieces: string[] = []
  let piece = ""
  let length = 0
  for (const character of value) {
    const encoded = encodeURIComponent(character).length
    if (length + encoded > size) {
      pieces.push(piece)
      piece = ""
      length = 0
    }
    piece += character
    length += encoded
  }
  if (piece) pieces.push(piece)
  return pieces
}

/**
 * The cookies that store `value` under `option.name`: one cookie, or chunks, plus a clearing
 * cookie for every name the request carried that the new value no longer uses. Sizes count the
 * value as `serialize` writes it (percent-encoded), so every `Set-Cookie` line fits in 4096 bytes.
 */
export function writeChunked(option: CookieOption, value: string, cookies: CookieJar, expires?: Date): Cookie[] {
  const options = expires ? { ...option.options, expires } : option.options
  const out: Cookie[] = []
  const budget = (cookieName: string) => MAX_SET_COOKIE_LENGTH - serialize(cookieName, "", options).length
  const encodedLength = UNRESERVED.test(value) ? value.length : encodeURIComponent(value).length
  if (encodedLength <= budget(option.name)) {
    out.push({ name: option.name, value, options })
  } else {
    // Chunk names have at most two digits (MAX_CHUNKS), so `.00` sizes every chunk's overhead.
    const pieces = split(value, budget(`${option.name}.00`))
    if (pieces.length > MAX_CHUNKS) {
      throw new SessionTokenError(`The session is too large for cookies (${pieces.length} chunks of 4 kB; at most ${MAX_CHUNKS}): keep less in the jwt callback`)
    }
    pieces.forEach((piece, i) => out.push({ name: `${option.name}.${i}`, value: piece, options }))
  }
  const used = new Set(out.map((cookie) => cookie.name))
  for (const name of presentNames(cookies, option.name)) {
    if (!used.has(name)) out.push(clearCookie(name, option.options))
  }
  return out
}

/** Clearing cookies for the cookie and all of its chunks that the request carried. */
export function clearChunked(option: CookieOption, cookies: CookieJar): Cookie[] {
  return presentNames(cookies, option.name).map((name) => clearCookie(name, option.options))
}
