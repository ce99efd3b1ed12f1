/** The adapter contract on the SQL adapter with SQLite (better-sqlite3). */
import { runAdapterContract } from "../../adapters/test-kit/index.js"
import { runSqlContract } from "../helpers/databases.js"

runSqlContract("sqlite", runAdapterContract)
