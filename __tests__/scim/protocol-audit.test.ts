/**
 * SCIM refusals reach the audit trail (issue #29): a wrong token and a bad request are each a
 * `scim.refused` record with the organization the path names, the reason and the status; an
 * accepted request is not one.
 */
import { describe, expect, it } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import type { Adapter } from "../../lib/adapters.js"
import { buildScimApp, mintToken, organizationWithOwner, scimClient } from "./fixtures/app.js"

describe("SCIM refusals in the audit trail", () => {
  it("records a wrong token and an invalid filter, and not an accepted request", async () => {
    const adapter = MemoryAdapter() as Adapter
    const records: Array<Record<string, unknown>> = []
    const t = buildScimApp(adapter, true, { events: { audit: (record) => void records.push({ ...(record as unknown as Record<string, unknown>) }) } })
    const { organizationId } = await organizationWithOwner(adapter, "audit")
    const token = await mintToken(adapter, organizationId)
    const client = scimClient(t.app, organizationId, token)
    expect((await client.send("GET", "/Users")).status).toBe(200)
    expect(records.filter((record) => record.type === "scim.refused")).toEqual([])
    expect((await client.send("GET", "/Users", undefined, { token: "scim_wrong" })).status).toBe(401)
    expect((await client.send("GET", `/Users?filter=${encodeURIComponent("userName eq")}`)).status).toBe(400)
    const refused = records.filter((record) => record.type === "scim.refused")
    expect(refused).toEqual([
      expect.objectContaining({ outcome: "failure", status: 401, organizationId }),
      expect.objectContaining({ outcome: "failure", status: 400, reason: "invalidFilter", organizationId }),
    ])
  })
})
