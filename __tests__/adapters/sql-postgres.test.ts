/** The adapter contract on the SQL adapter with the machine's PostgreSQL. */
import { runAdapterContract } from "../../adapters/test-kit/index.js"
import { runSqlContract } from "../helpers/databases.js"

runSqlContract("postgres", runAdapterContract)
