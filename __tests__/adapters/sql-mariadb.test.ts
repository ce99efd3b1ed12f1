/** The adapter contract on the SQL adapter with the machine's MariaDB. */
import { runAdapterContract } from "../../adapters/test-kit/index.js"
import { runSqlContract } from "../helpers/databases.js"

runSqlContract("mariadb", runAdapterContract)
