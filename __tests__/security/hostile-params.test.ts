/**
 * Issue #13, hostile input once more: every action, GET and POST, with parameters given twice,
 * as arrays and objects (`callbackUrl[]=`, `email[x]=`, JSON with nested objects), non-UTF-8
 * bytes, 1 MB values and markup meant to be reflected. Requests go over a raw socket to the app
 * with every provider type (full-app.ts), listening with an 8 MB header limit so 1 MB query
 * values reach Gatehouse instead of Node's 431. Each answer: below 500; a refusal carries a named
 * error type (JSON `error.type`, or `error=<type>` in a redirect); no page contains the probe's
 * markup unescaped; and the app answers normally afterwards.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { ERROR_TYPES } from "../../lib/errors.js"
import { SIGNIN_ERROR_TYPES } from "../../lib/core/error-messages.js"
import { HOST, csrfPair, listen, preserveEnv, rawHttp, type CsrfPair, type RawResponse } from "./fixtures.js"
import { startFullApp, type FullApp } from "./full-app.js"
import { quietIdp } from "./oauth/support.js"

jest.setTimeout(120_000)
preserveEnv("AUTH_URL")
quietIdp()

const PROBE = `<x-probe data-q="'">`
const MB = "A".repeat(1024 * 1024)
/** Names a refusal may carry: the error types and the spec's `error` values. */
const NAMED = new Set<string>([...ERROR_TYPES, ...SIGNIN_ERROR_TYPES])

let full: FullApp
let server: Awaited<ReturnType<typeof listen>>
let pair: CsrfPair

beforeAll(async () => {
  full = await startFullApp({ label: "hostile" })
  server = await listen(full.app, { maxHeaderSize: 8 * 1024 * 1024 })
  pair = await csrfPair(full.app)
})

afterAll(async () => {
  await server.close()
  await full.close()
})

const GETS = [
  "/auth/signin", "/auth/signin/credentials", "/auth/signout", "/auth/session", "/auth/csrf", "/auth/providers", "/auth/error",
  "/auth/verify-request", "/auth/callback/idp", "/auth/callback/nodemailer", "/auth/webauthn-options/passkey",
]
const POSTS = [
  "/auth/signin/credentials", "/auth/signin/nodemailer", "/auth/signin/idp", "/auth/callback/credentials", "/auth/callback/passkey",
  "/auth/callback/nodemailer", "/auth/signout", "/auth/session",
]

const QUERIES: Array<[string, string]> = [
  ["repeated parameters", "callbackUrl=/a&callbackUrl=/b&error=Configuration&error=AccessDenied&action=authenticate&action=register&email=a%40x.test&email=b%40x.test&token=t&token=u"],
  ["arrays and objects", "callbackUrl[]=/a&callbackUrl[x]=/b&error[]=Configuration&email[]=a%40x.test&action[]=authenticate&token[a][b]=1"],
  ["non-UTF-8 bytes", "callbackUrl=%FF%FE&error=%C3%28&email=%E0%80%80%40x.test&token=%ED%A0%80&action=%FF"],
  ["1 MB values", `callbackUrl=${MB}&email=${MB}&token=${MB}`],
  ["markup to reflect", `callbackUrl=${encodeURIComponent(`javascript:alert(1)//${PROBE}`)}&error=${encodeURIComponent(PROBE)}&email=${encodeURIComponent(`${PROBE}@x.test`)}&code=${encodeURIComponent(PROBE)}`],
]

function form(fields: string): { type: string; body: Buffer } {
  return { type: "application/x-www-form-urlencoded", body: Buffer.from(fields) }
}

const BODIES: Array<[string, () => { type: string; body: Buffer }]> = [
  ["repeated fields", () => form(`csrfToken=${pair.token}&csrfToken=${pair.token}&username=alice&username=bob&password=a&password=b&email=a%40x.test&email=b%40x.test&callbackUrl=/a&callbackUrl=/b`)],
  ["qs-style arrays and objects", () => form(`csrfToken=${pair.token}&username[]=alice&password[$ne]=x&email[x]=a%40x.test&callbackUrl[]=/z&csrfToken[]=x`)],
  ["JSON with nested objects", () => ({ type: "application/json", body: Buffer.from(JSON.stringify({ csrfToken: pair.token, username: { $ne: null }, password: ["a", "b"], email: { a: { b: 1 } }, callbackUrl: { x: [1] }, __proto__: { admin: true } })) })],
  ["JSON with the token as an object", () => ({ type: "application/json", body: Buffer.from(JSON.stringify({ csrfToken: { toString: "x" }, email: "a@x.test" })) })],
  ["non-UTF-8 bytes", () => ({ type: "application/x-www-form-urlencoded", body: Buffer.concat([Buffer.from(`csrfToken=${pair.token}&email=`), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from("%40x.test")]) })],
  ["a 1 MB value", () => form(`csrfToken=${pair.token}&email=${MB}`)],
  ["markup to reflect", () => form(`csrfToken=${pair.token}&email=${encodeURIComponent(`${PROBE}@x.test`)}&username=${encodeURIComponent(PROBE)}&password=x&callbackUrl=${encodeURIComponent(PROBE)}`)],
]

function send(method: string, target: string, body?: { type: string; body: Buffer }, accept = "text/html"): Promise<RawResponse> {
  const head = [`${method} ${target} HTTP/1.1`, `Host: ${HOST}`, `Cookie: ${pair.cookie}`, `Accept: ${accept}`, "Connection: close"]
  if (body) head.push(`Content-Type: ${body.type}`, `Content-Length: ${body.body.length}`)
  return rawHttp(server.port, Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body?.body ?? Buffer.alloc(0)]))
}

function header(res: RawResponse, name: string): string | undefined {
  return res.headers.find(([key]) => key === name)?.[1]
}

/** The oracle: below 500, a refusal named, no unescaped probe. */
function judge(what: string, res: RawResponse): void {
  const context = `${what}: ${res.status}`
  expect([context, res.status > 0 && res.status < 500]).toEqual([context, true])
  expect([context, res.text.includes("<x-probe")]).toEqual([context, false])
  if (res.status >= 400) {
    // HTML refusals are the built-in pages; a JSON refusal names its type.
    if ((header(res, "content-type") ?? "").includes("json")) {
      const type = (JSON.parse(res.body) as { error?: { type?: string } }).error?.type
      expect([context, type, NAMED.has(type ?? "")]).toEqual([context, type, true])
    }
  }
  const location = header(res, "location")
  const target = location ? new URL(location, `http://${HOST}`) : undefined
  // Only this site's pages: a sign-in start passes extra query parameters on to the provider.
  if (target?.host === HOST) {
    const error = target.searchParams.get("error")
    if (error !== null) expect([context, error, NAMED.has(error)]).toEqual([context, error, true])
  }
}

describe("every action with hostile query strings", () => {
  it.each(QUERIES)("%s: never 5xx, refusals named, nothing reflected unescaped", async (_name, query) => {
    for (const accept of ["text/html", "application/json"]) {
      for (const path of GETS) judge(`GET ${path}?<${_name}> (${accept})`, await send("GET", `${path}?${query}`, undefined, accept))
      for (const path of POSTS) judge(`POST ${path}?<${_name}> (${accept})`, await send("POST", `${path}?${query}`, form(`csrfToken=${pair.token}`), accept))
    }
  })
})

describe("every POST action with hostile bodies", () => {
  it.each(BODIES)("%s: never 5xx, refusals named, nothing reflected unescaped", async (_name, body) => {
    for (const accept of ["text/html", "application/json"]) {
      for (const path of POSTS) judge(`POST ${path} <${_name}> (${accept})`, await send("POST", path, body(), accept))
    }
  })

  it("a 1 MB body value is refused as PayloadTooLarge (413) by name, JSON clients included", async () => {
    const res = await rawHttp(
      server.port,
      Buffer.concat([Buffer.from(`POST /auth/signin/nodemailer HTTP/1.1\r\nHost: ${HOST}\r\nCookie: ${pair.cookie}\r\nAccept: application/json\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${MB.length + 6}\r\nConnection: close\r\n\r\n`), Buffer.from(`email=${MB}`)]),
    )
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toMatchObject({ error: { type: "PayloadTooLarge" } })
  })

  it("afterwards the app answers normally and nothing was written", async () => {
    const res = await send("GET", "/auth/providers")
    expect(res.status).toBe(200)
    expect(await full.rows()).toMatchObject({ users: 0, sessions: 0, accounts: 0 })
  })
})
