/**
 * CASHIER_IP_COUNTRY_FILE, read once at start (docs/operations.md, IP
 * countries): the operator's `network,country` CSV parsed into the table the
 * country mismatch rule looks the request's IP address up in. A file that is
 * missing, unreadable or with a bad row stops the start, naming the setting,
 * the file, the line and the field; no network is asked, ever.
 */
import { StartError } from "../../shared/runtime/start-error.ts";
import { readSettingFile } from "../../shared/runtime/setting-file.ts";
import { type IpCountryTable, parseIpCountryCsv } from "../domain/ip-country-table.ts";

/** The table of the file at `path`, or a StartError naming what is wrong where. */
export async function readIpCountryFile(path: string): Promise<IpCountryTable> {
  const fix = "correct the file (docs/operations.md, IP countries), or unset CASHIER_IP_COUNTRY_FILE, and start again";
  const text = await readSettingFile("CASHIER_IP_COUNTRY_FILE", path, fix);
  const parsed = parseIpCountryCsv(text);
  if (!parsed.ok) {
    const f = parsed.fault;
    throw new StartError(`CASHIER_IP_COUNTRY_FILE ${path}: line ${f.line}: ${f.field} ${f.description}`, fix);
  }
  return parsed.table;
}
