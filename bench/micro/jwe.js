// Micro benchmark of the session cookie floor: Gatehouse's JWE (node:crypto) against @auth/core's
// (jose on WebCrypto), in the same process: sealing alone, opening alone, and one seal plus one
// open per operation. `npm run bench:jwe` runs it alone; bench/run.js includes it.
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { encode as authEncode, decode as authDecode } from "@auth/core/jwt"
import { encode, decode } from "gatehouse/jwt"

const secret = "bench-secret-0123456789abcdef0123456789abcdef"
const salt = "authjs.session-token"
const token = { name: "Alice Example", email: "alice@example.com", picture: "https://img.example/a.png", sub: "user-123" }

async function measure(fn, iterations) {
  for (let i = 0; i < Math.max(200, iterations / 10); i++) await fn()
  const start = performance.now()
  for (let i = 0; i < iterations; i++) await fn()
  return ((performance.now() - start) * 1000) / iterations
}

/** Rows of { operation, gatehouse, authjs } in µs per operation. */
export async function jweMicro({ iterations = 20_000 } = {}) {
  const ours = await encode({ token, secret, salt })
  const theirs = await authEncode({ token, secret, salt })
  const check = await decode({ token: theirs, secret, salt })
  if (check?.email !== token.email) throw new Error("Gatehouse cannot open @auth/core's token: the comparison would be unfair")
  const operations = [
    ["seal", () => encode({ token, secret, salt }), () => authEncode({ token, secret, salt })],
    ["open", () => decode({ token: ours, secret, salt }), () => authDecode({ token: theirs, secret, salt })],
    [
      "seal + open",
      async () => decode({ token: await encode({ token, secret, salt }), secret, salt }),
      async () => authDecode({ token: await authEncode({ token, secret, salt }), secret, salt }),
    ],
  ]
  const rows = []
  for (const [operation, gatehouse, authjs] of operations) {
    rows.push({ operation, gatehouse: await measure(gatehouse, iterations), authjs: await measure(authjs, iterations) })
  }
  return rows
}

export function jweTable(rows) {
  const lines = ["| JWE operation | Gatehouse µs | @auth/core µs | × faster |", "|---|---:|---:|---:|"]
  for (const row of rows) lines.push(`| ${row.operation} | ${row.gatehouse.toFixed(1)} | ${row.authjs.toFixed(1)} | ${(row.authjs / row.gatehouse).toFixed(1)} |`)
  return lines.join("\n")
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(jweTable(await jweMicro()))
