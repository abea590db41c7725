/**
 * Settings from a `.env` file: `.env` in the working directory, or the file
 * CASHIER_ENV_FILE names, read into the environment before anything reads it
 * (every entry point imports this first). A variable already set in the
 * environment wins over the file, so a supervisor's settings stay in charge.
 * A `.env` that is not a file (a Python virtualenv's directory) is not ours
 * and is passed over; a file named by CASHIER_ENV_FILE must be readable.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";

const named = process.env.CASHIER_ENV_FILE;
const file = resolve(named || ".env");
if (named || statSync(file, { throwIfNoEntry: false })?.isFile()) {
  try {
    process.loadEnvFile(file);
  } catch (err) {
    const which = named ? "CASHIER_ENV_FILE" : "the .env file of the working directory";
    process.stderr.write(`cashier failed to start: ${which} ${file} cannot be read (${(err as Error).message}). Fix: correct it, or remove it\n`);
    process.exit(1);
  }
}
