/** Issue #31: a mistake in the `serviceTokens` option is refused at start-up, naming the option. */
import { generateKeyPair, exportJWK } from "jose"
import { authRouter } from "../../lib/index.js"
import { InvalidOption } from "../../lib/errors.js"
import { tokenConfig } from "./support.js"

async function privateJwk(alg: "ES256" | "EdDSA" | "RS256", kid = "k1") {
  const { privateKey } = await generateKeyPair(alg, { extractable: true })
  return { ...(await exportJWK(privateKey)), kid }
}

function refusal(serviceTokens: unknown): unknown {
  try {
    authRouter(tokenConfig({ serviceTokens } as never))
  } catch (error) {
    return error
  }
  return undefined
}

describe("the serviceTokens option", () => {
  test.each([
    ["a string", "yes", /^serviceTokens must be true or an object/],
    ["an unknown name", { maxAge: 300, lifetime: 5 }, /^serviceTokens\.lifetime is not an option/],
    ["another algorithm", { algorithm: "RS256" }, /^serviceTokens\.algorithm must be "ES256" or "EdDSA"/],
    ["maxAge too short", { maxAge: 10 }, /^serviceTokens\.maxAge must be a whole number of seconds from 30 to 3600/],
    ["maxAge too long", { maxAge: 7200 }, /^serviceTokens\.maxAge/],
    ["maxAge not whole", { maxAge: 60.5 }, /^serviceTokens\.maxAge/],
    ["no audiences", { audiences: [] }, /^serviceTokens\.audiences must be a non-empty list/],
    ["an audience with a space", { audiences: ["a b"] }, /^serviceTokens\.audiences/],
    ["an audience twice", { audiences: ["api", "api"] }, /^serviceTokens\.audiences lists an audience twice/],
    ["an empty issuer", { issuer: "" }, /^serviceTokens\.issuer must be a non-empty string/],
    ["rotation under a minute", { rotation: { every: 30 } }, /^serviceTokens\.rotation\.every must be a whole number of seconds from 60/],
    ["rotation not an object", { rotation: 60 }, /^serviceTokens\.rotation must be an object/],
    ["keys empty", { keys: [] }, /^serviceTokens\.keys must be a non-empty list/],
  ])("%s", (_name, value, message) => {
    const error = refusal(value)
    expect(error).toBeInstanceOf(InvalidOption)
    expect((error as Error).message).toMatch(message)
  })

  test("configured keys: each is a private P-256 or Ed25519 JWK with a unique kid; rotation is not for them", async () => {
    const es = await privateJwk("ES256", "a")
    const { d: _d, ...publicOnly } = es
    const cases: Array<[unknown, RegExp]> = [
      [{ keys: [{ ...es, kid: undefined }] }, /^serviceTokens\.keys\[0\] must have a "kid"/],
      [{ keys: [publicOnly] }, /^serviceTokens\.keys\[0\] \("a"\) is a public key/],
      [{ keys: [await privateJwk("RS256", "r")] }, /^serviceTokens\.keys\[0\] \("r"\) must be a P-256 \(ES256\) or Ed25519 \(EdDSA\) key/],
      [{ keys: [es, { ...(await privateJwk("ES256")), kid: "a" }] }, /^serviceTokens\.keys has two keys with the kid "a"/],
      [{ keys: [{ ...es, d: "AAAA" }] }, /^serviceTokens\.keys\[0\] \("a"\) is not a valid ES256 key/],
      [{ keys: [{ ...es, alg: "EdDSA" }] }, /^serviceTokens\.keys\[0\] \("a"\) says alg "EdDSA" but is a ES256 key/],
      [{ keys: [es], algorithm: "EdDSA" }, /^serviceTokens\.algorithm is "EdDSA" but the signing key/],
      [{ keys: [es], rotation: { every: 3600 } }, /^serviceTokens\.rotation is for generated keys/],
    ]
    for (const [value, message] of cases) {
      const error = refusal(value)
      expect(error).toBeInstanceOf(InvalidOption)
      expect((error as Error).message).toMatch(message)
    }
  })

  test("good values start, with configured keys of both algorithms and generated keys", async () => {
    expect(refusal(true)).toBeUndefined()
    expect(refusal(false)).toBeUndefined()
    expect(refusal({ algorithm: "EdDSA", maxAge: 30, audiences: ["https://api.example.test"], issuer: "https://id.example.test", rotation: { every: 60 } })).toBeUndefined()
    expect(refusal({ keys: [await privateJwk("EdDSA", "new"), await privateJwk("ES256", "old")] })).toBeUndefined()
  })
})
