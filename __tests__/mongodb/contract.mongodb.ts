/**
 * The adapter contract on MongoDBAdapter, against the server at MONGODB_URI:
 *
 *   MONGODB_URI=mongodb://127.0.0.1:27017 npm run test:mongodb
 *
 * Not part of `npm test` (no MongoDB server runs where this project is built). Each run uses a
 * database of its own, dropped at the end; the back door reads the collections with the driver.
 * On a replica set or sharded cluster `transaction()` is a driver transaction; on a standalone
 * server it is the compensating fallback; both must pass the same checks.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, describe, expect, it } from "@jest/globals"
import { MongoClient, ObjectId } from "mongodb"
import { MongoDBAdapter, setupIndexes, supportsTransactions } from "../../adapters/mongodb/index.js"
import { USER_LOCK_CHECK, newAccount, newUser, runAdapterContract } from "../../adapters/test-kit/index.js"
import { mongoBackDoor } from "./back-door.js"

const uri = process.env.MONGODB_URI
if (!uri) throw new Error("MONGODB_URI is not set: run with MONGODB_URI=mongodb://… npm run test:mongodb")

const databaseName = `gatehouse_test_${randomBytes(6).toString("hex")}`
const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 })
try {
  await client.connect()
} catch (error) {
  await client.close().catch(() => undefined)
  throw new Error(`MongoDB is not reachable at MONGODB_URI (${uri.replace(/\/\/[^@/]*@/, "//…@")})`, { cause: error })
}
const db = client.db(databaseName)
await setupIndexes(db)
const transactions = await supportsTransactions(db)
console.info(`[mongodb contract] database ${databaseName}; transaction(): ${transactions ? "driver transactions" : "standalone server, compensating fallback"}`)

// A Promise of the client, as most apps pass it.
const adapter = MongoDBAdapter(Promise.resolve(client), { databaseName })
const backDoor = mongoBackDoor(db)

afterAll(async () => {
  await db.dropDatabase()
  await client.close()
})

runAdapterContract("MongoDBAdapter", {
  adapter: () => adapter,
  db: backDoor,
  skip: { [USER_LOCK_CHECK]: "MongoDBAdapter has no lockUser: Gatehouse serialises removing a user's ways in within each process" },
})

describe("MongoDBAdapter on MongoDB", () => {
  it("getUser returns null for an unknown ObjectId, getUserByEmail for an unknown email", async () => {
    expect(await adapter.getUser(new ObjectId().toHexString())).toBeNull()
    expect(await adapter.getUserByEmail(`nobody-${randomUUID()}@example.com`)).toBeNull()
  })

  it("getUser finds nothing for an id that cannot be an ObjectId", async () => {
    expect(await adapter.getUser("0b8c2d3e-4f50-4a61-8b72-93a4b5c6d7e8")).toBeNull()
  })

  it("createUser keeps a given ObjectId id and gives any other id a new ObjectId", async () => {
    const given = new ObjectId().toHexString()
    expect((await adapter.createUser(newUser({ id: given }))).id).toBe(given)
    const uuid = randomUUID()
    const created = await adapter.createUser(newUser({ id: uuid }))
    expect(created.id).not.toBe(uuid)
    expect(created.id).toMatch(/^[0-9a-f]{24}$/)
  })

  it("stores users with an ObjectId _id, and the userId of accounts, sessions and authenticators as that ObjectId", async () => {
    const user = await adapter.createUser(newUser())
    const account = newAccount(user.id)
    await adapter.linkAccount(account)
    const sessionToken = randomUUID()
    await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 60_000) })
    const credentialID = randomUUID()
    await adapter.createAuthenticator({
      credentialID,
      userId: user.id,
      providerAccountId: credentialID,
      credentialPublicKey: "cHVibGljLWtleQ",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    })
    const _id = new ObjectId(user.id)
    expect(await db.collection("users").findOne({ _id })).not.toBeNull()
    for (const collection of ["accounts", "sessions", "authenticators"]) {
      const stored = await db.collection(collection).findOne({ userId: _id })
      expect(stored?.userId).toBeInstanceOf(ObjectId)
      expect(stored).not.toHaveProperty("id")
    }
    const storedAccount = await db.collection("accounts").findOne({ providerAccountId: account.providerAccountId })
    expect(storedAccount?.session_state).toEqual(account.session_state)
  })

  it("stores no email for a user without one; updateUser with an empty email removes it", async () => {
    const bare = await adapter.createUser(newUser({ email: "" }))
    expect(await db.collection("users").findOne({ _id: new ObjectId(bare.id) })).not.toHaveProperty("email")
    expect(bare.email).toBe("")
    const user = await adapter.createUser(newUser())
    const updated = await adapter.updateUser({ id: user.id, email: "" })
    expect(updated.email).toBe("")
    expect(await db.collection("users").findOne({ _id: new ObjectId(user.id) })).not.toHaveProperty("email")
  })

  it("updateUser refuses an email another user has", async () => {
    const a = await adapter.createUser(newUser())
    const b = await adapter.createUser(newUser())
    await expect(adapter.updateUser({ id: b.id, email: a.email })).rejects.toBeTruthy()
  })

  it("linkAccount and createSession refuse a user that does not exist", async () => {
    const missing = new ObjectId().toHexString()
    await expect(adapter.linkAccount(newAccount(missing))).rejects.toThrow(/no user/)
    await expect(adapter.createSession({ sessionToken: randomUUID(), userId: missing, expires: new Date() })).rejects.toThrow(/no user/)
  })

  it("setupIndexes again is a no-op, and the email index is unique and partial", async () => {
    await setupIndexes(db)
    const email = (await db.collection("users").listIndexes().toArray()).find((index) => index.key?.email === 1)
    expect(email).toMatchObject({ unique: true, partialFilterExpression: { email: { $type: "string" } } })
  })

  it(`transaction(): ${transactions ? "others do not see the user before the commit" : "the compensating fallback is not isolated"}`, async () => {
    const draft = newUser()
    let seenOutside: unknown
    await adapter.transaction(async (tx) => {
      await tx.createUser!(draft)
      seenOutside = await adapter.getUserByEmail(draft.email)
    })
    if (transactions) expect(seenOutside).toBeNull()
    else expect(seenOutside).not.toBeNull()
    expect(await adapter.getUserByEmail(draft.email)).not.toBeNull()
  })
})
