/**
 * ROGUE-OP (SECURITY-CATALOG.md §7): a small hand-written OpenID provider on 127.0.0.1 for the
 * cases an honest server cannot produce. Discovery, JWKS, an authorize endpoint that redirects
 * straight back with a code and the state it was given, and a token endpoint whose `id_token`
 * (claims, header and signature) each test chooses through `mint`. Every request is counted by path.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import { CompactSign, exportJWK, generateKeyPair } from "jose"

export const ROGUE_KID = "rogue-key-1"

export interface MintContext {
  /** Good claims for this code: iss, aud, sub, exp, iat, the nonce of the authorization request, profile. */
  claims: Record<string, unknown>
  /** Signs any claims as a compact JWS with the published RS256 key (header overrides merged in). */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>
  /** The parameters the authorization request carried (nonce, state, redirect_uri, ...). */
  request: URLSearchParams
}

export interface RogueOp {
  issuer: string
  /** Requests received, by path. */
  hits: Record<string, number>
  /** The discovery document (change it before the app's first use of the provider). */
  metadata: Record<string, unknown>
  /** The profile claims the default id_token carries (sub, name, email, ...). */
  profile: Record<string, unknown>
  /** Builds the id_token for a code. Default: `sign(claims)`. */
  mint: (context: MintContext) => Promise<string> | string
  /** Default mint, profile and metadata again. */
  reset(): void
  /** The browser at the authorize endpoint: returns where it sends the user back. */
  authorize(url: string): Promise<URL>
  close(): Promise<void>
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers })
  res.end(JSON.stringify(payload))
}

export async function startRogueOp(options: { clientId: string }): Promise<RogueOp> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: ROGUE_KID, alg: "RS256", use: "sig" }
  const codes = new Map<string, URLSearchParams>()

  const defaults = () => ({
    metadata: {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      authorization_response_iss_parameter_supported: true,
    } as Record<string, unknown>,
    profile: { sub: "rogue-user", name: "Rogue User", email: "rogue@example.com", email_verified: true } as Record<string, unknown>,
    mint: (context: MintContext) => context.sign(context.claims),
  })

  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: "RS256", kid: ROGUE_KID, typ: "JWT", ...header } as never)
      .sign(privateKey)

  const op: RogueOp = {
    issuer,
    hits: {},
    ...defaults(),
    reset() {
      Object.assign(op, defaults())
    },
    async authorize(url) {
      const response = await fetch(url, { redirect: "manual" })
      const location = response.headers.get("location")
      if (!location) throw new Error(`ROGUE-OP answered ${response.status}: ${await response.text()}`)
      return new URL(location)
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      }),
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", issuer)
    op.hits[url.pathname] = (op.hits[url.pathname] ?? 0) + 1
    switch (url.pathname) {
      case "/.well-known/openid-configuration":
        return send(res, 200, op.metadata)
      case "/jwks":
        return send(res, 200, { keys: [jwk] })
      case "/authorize": {
        const redirectUri = url.searchParams.get("redirect_uri")
        if (!redirectUri) return send(res, 400, { error: "invalid_request" })
        const code = randomBytes(16).toString("base64url")
        codes.set(code, url.searchParams)
        const back = new URL(redirectUri)
        back.searchParams.set("code", code)
        const state = url.searchParams.get("state")
        if (state !== null) back.searchParams.set("state", state)
        back.searchParams.set("iss", issuer)
        res.writeHead(302, { Location: back.href })
        res.end()
        return
      }
      case "/token": {
        const form = new URLSearchParams(await body(req))
        const code = form.get("code") ?? ""
        const request = codes.get(code)
        codes.delete(code)
        if (!request) return send(res, 400, { error: "invalid_grant" })
        const now = Math.floor(Date.now() / 1000)
        const claims: Record<string, unknown> = {
          iss: issuer,
          aud: options.clientId,
          iat: now,
          exp: now + 300,
          ...(request.get("nonce") !== null && { nonce: request.get("nonce") }),
          ...op.profile,
        }
        const idToken = await op.mint({ claims, sign, request })
        return send(res, 200, { access_token: `rogue-at-${randomBytes(12).toString("hex")}`, token_type: "Bearer", expires_in: 300, id_token: idToken })
      }
      default:
        return send(res, 404, { error: "not_found" })
    }
  }

  server.on("request", (req, res) => {
    handle(req, res).catch((error: Error) => send(res, 500, { error: "server_error", error_description: error.message }))
  })
  return op
}
