/** The adapter contract on the memory adapter (the reference behaviour). */
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { runAdapterContract } from "../../adapters/test-kit/index.js"

const adapter = MemoryAdapter()
const key = (...parts: string[]) => JSON.stringify(parts)

runAdapterContract("MemoryAdapter", {
  adapter: () => adapter,
  db: {
    user: async (id) => adapter.store.users.get(id) ?? null,
    account: async (provider, id) => adapter.store.accounts.get(key(provider, id)) ?? null,
    session: async (token) => adapter.store.sessions.get(token) ?? null,
    verificationToken: async (identifier, token) => adapter.store.tokens.get(key(identifier, token)) ?? null,
    authenticator: async (id) => adapter.store.authenticators.get(id) ?? null,
  },
})
