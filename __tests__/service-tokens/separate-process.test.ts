/**
 * Issue #31: "a service token verified by jose alone in a separate process with only the JWKS
 * URL". The child is a plain `node` process running fixtures/verify-with-jose.mjs, which imports
 * jose and nothing of Gatehouse; it is given the JWKS URL, the audience and the token.
 */
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import request from "supertest"
import { freshName, listen, tokenApp, tokenConfig } from "./support.js"

const run = promisify(execFile)
const SCRIPT = fileURLToPath(new URL("./fixtures/verify-with-jose.mjs", import.meta.url))
const ROOT = fileURLToPath(new URL("../..", import.meta.url))

async function child(jwksUrl: string, audience: string, token: string): Promise<{ payload?: Record<string, unknown>; alg?: string; error?: string }> {
  // No --experimental-vm-modules and no loader of the test run: a bare node, resolving jose from the project.
  const { stdout } = await run(process.execPath, [SCRIPT, jwksUrl, audience, token], { cwd: ROOT, env: { PATH: process.env.PATH ?? "" } }).catch((error: { stdout: string }) => ({ stdout: error.stdout }))
  return JSON.parse(stdout) as { payload?: Record<string, unknown>; alg?: string; error?: string }
}

describe.each(["ES256", "EdDSA"] as const)("a %s token, verified by jose alone in another process", (algorithm) => {
  const app = tokenApp(tokenConfig({ serviceTokens: { algorithm, audiences: ["https://reports.example.test"] } }))
  let server: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    server = await listen(app)
  })
  afterAll(() => server.close())

  test("the child prints the payload; another audience is refused there too", async () => {
    const username = freshName("proc")
    const agent = request.agent(server.origin)
    const csrf = (await agent.get("/auth/csrf")).body.csrfToken as string
    await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: csrf, username, password: "pw" }).expect(302)
    const { token } = (await agent.get("/auth/token").expect(200)).body as { token: string }
    const jwksUrl = `${server.origin}/auth/jwks`
    const verified = await child(jwksUrl, "https://reports.example.test", token)
    expect(verified).toEqual({ alg: algorithm, payload: expect.objectContaining({ sub: `u-${username}`, aud: "https://reports.example.test", iss: `${server.origin}/auth`, via: "session" }) })
    expect(await child(jwksUrl, "https://billing.example.test", token)).toEqual({ error: "ERR_JWT_CLAIM_VALIDATION_FAILED" })
  }, 30_000)
})
