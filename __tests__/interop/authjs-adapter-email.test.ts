/**
 * Issue #19 with a third-party adapter: `@auth/pg-adapter` (only the Auth.js adapter methods, in
 * PostgreSQL) carries the scanner-safe link and the one-time code unchanged. The code needs no
 * adapter method of its own: it spends the same verification-token row as the link, so using one
 * spends the other there too.
 */
import PostgresAdapter from "@auth/pg-adapter"
import { ALICE, codeIn, expectError, follow, mailFor, openLink, sessionCookie, sessionOf, startSite, typeCode } from "../email/support.js"
import { openAuthjsSchema, type AuthjsSchema } from "./support.js"

let db: AuthjsSchema
beforeAll(async () => {
  db = await openAuthjsSchema()
})
afterAll(() => db.close())

const rows = async () => (await db.pool.query("SELECT identifier FROM verification_token")).rows as Array<{ identifier: string }>

test("the code signs in through @auth/pg-adapter and spends the row its link uses; scanners' GETs spend nothing", async () => {
  const site = await startSite({ adapter: PostgresAdapter(db.pool) })
  const agent = site.agent()
  const { mail, link } = await mailFor(site, agent, ALICE)
  expect(await rows()).toEqual([{ identifier: ALICE }])
  for (let i = 0; i < 3; i++) expect((await openLink(site.agent(), link)).status).toBe(200)
  expect(await rows()).toHaveLength(1)

  expect(sessionCookie(await typeCode(agent, codeIn(mail)))).toBeDefined()
  expect((await sessionOf(agent))?.user?.email).toBe(ALICE)
  expect(await rows()).toEqual([])
  expectError(await follow(site.agent(), link), "error", "Verification")

  // And the other way round: the link's button, then the code.
  const other = site.agent()
  const second = await mailFor(site, other, ALICE)
  expect(sessionCookie(await follow(site.agent(), second.link))).toBeDefined()
  expectError(await typeCode(other, codeIn(second.mail)), "signin", "EmailCodeExpired")
})
