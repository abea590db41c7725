/**
 * tap's `after` script (.taprc): stops the run's shared cluster (or drops
 * the template on DATABASE_URL) and removes its files under .tap/.
 */
import { releaseLeftovers } from "./files.ts";

await releaseLeftovers();
