/**
 * session.seal / session.unseal replace the JWE of the session cookie; the deprecated
 * jwt.encode / jwt.decode do the same (and warn once). Checked over HTTP: sign-in seals with the
 * app's function, reads open with it, and a value the app's unseal refuses reads as signed out.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { jest } from "@jest/globals"
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "../../lib/types.js"
import { makeApp, signInAs, testConfig } from "../helpers/app.js"
import { agentFor, sessionValue } from "./support.js"

/** A signed (not encrypted) token format, to prove the app's functions are the ones in use. */
function signedCodec() {
  const mac = (body: string, secret: string | string[], salt: string) =>
    createHmac("sha256", `${Array.isArray(secret) ? secret[0] : secret}|${salt}`).update(body).digest("base64url")
  const seal = jest.fn(async ({ token, secret, salt, maxAge }: JWTEncodeParams) => {
    const now = Math.floor(Date.now() / 1000)
    const body = Buffer.from(JSON.stringify({ ...token, iat: now, exp: now + (maxAge ?? 60) })).toString("base64url")
    return `${body}.${mac(body, secret, salt)}`
  })
  const unseal = jest.fn(async ({ token, secret, salt }: JWTDecodeParams): Promise<JWT | null> => {
    const [body = "", signature = ""] = (token ?? "").split(".")
    const expected = Buffer.from(mac(body, secret, salt))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
    return JSON.parse(Buffer.from(body, "base64url").toString()) as JWT
  })
  return { seal, unseal }
}

describe.each([
  ["session.seal / session.unseal", (codec: ReturnType<typeof signedCodec>) => ({ session: { seal: codec.seal, unseal: codec.unseal } })],
  ["deprecated jwt.encode / jwt.decode", (codec: ReturnType<typeof signedCodec>) => ({ jwt: { encode: codec.seal, decode: codec.unseal } })],
])("%s", (_name, options) => {
  test("sign-in seals the session with the app's function, and reads open it with the app's", async () => {
    const codec = signedCodec()
    const app = makeApp(testConfig(options(codec)))
    const agent = agentFor(app)
    const signedIn = await signInAs(agent, "alice")
    const value = sessionValue(signedIn)
    expect(value).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(codec.seal).toHaveBeenCalledWith(expect.objectContaining({ salt: "authjs.session-token", token: expect.objectContaining({ sub: "user-alice" }) }))

    const session = await agent.get("/auth/session").expect(200)
    expect(session.body.user).toEqual({ name: "Alice", email: "alice@example.com", image: "https://img.example/alice.png" })
    expect(codec.unseal).toHaveBeenCalledWith(expect.objectContaining({ token: value, salt: "authjs.session-token" }))
  })

  test("a cookie the app's unseal refuses reads as signed out and is cleared", async () => {
    const codec = signedCodec()
    const app = makeApp(testConfig(options(codec)))
    const agent = agentFor(app)
    const value = sessionValue(await signInAs(agent, "alice"))!
    const forged = `${Buffer.from(JSON.stringify({ sub: "user-bob", name: "Bob", exp: 9_999_999_999 })).toString("base64url")}.${value.split(".")[1]}`
    const response = await agentFor(app).get("/auth/session").set("Cookie", `authjs.session-token=${forged}`).expect(200)
    expect(response.body).toBeNull()
    expect(String(response.headers["set-cookie"])).toMatch(/authjs\.session-token=;/)
  })
})

test("the deprecated jwt.encode and jwt.decode log their warning codes once", async () => {
  const warn = jest.fn()
  const codec = signedCodec()
  const config = testConfig({ jwt: { encode: codec.seal, decode: codec.unseal }, logger: { warn } })
  makeApp(config)
  makeApp(config)
  expect(warn.mock.calls).toEqual([["jwt-encode-deprecated"], ["jwt-decode-deprecated"]])
})
