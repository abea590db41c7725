/**
 * A file a setting names, read at start (the merchants file, the IP country
 * file): one that is missing, unreadable or a directory stops the start with a
 * line naming the setting and the path, and the setting's own remedy.
 */
import { readFile } from "node:fs/promises";
import { StartError } from "./start-error.ts";

const WHY: Readonly<Record<string, string>> = {
  ENOENT: "does not exist",
  EACCES: "cannot be read (permission denied)",
  EISDIR: "is a directory",
};

/** The text of the file `setting` names at `path`, or a StartError saying why not, with `fix`. */
export async function readSettingFile(setting: string, path: string, fix: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    const why = WHY[(err as NodeJS.ErrnoException).code ?? ""] ?? "cannot be read";
    throw new StartError(`${setting} ${path} ${why}`, fix);
  }
}
