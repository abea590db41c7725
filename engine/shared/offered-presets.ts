/**
 * Which of a frontend's preset deposit amounts a customer paying in one
 * currency is offered: those within that currency's deposit limits, since
 * choosing one outside them could only be refused. The hosted Cashier's
 * session (engine) and the Backoffice's preview of a frontend (edge) both
 * read it here, so that the preview shows exactly the buttons the customer
 * gets. Amounts in minor units of that currency; a bound left out is no bound.
 */
export function offeredPresets(presetsMinor: readonly bigint[], depositMinMinor: bigint | undefined, depositMaxMinor: bigint | undefined): bigint[] {
  return presetsMinor.filter((p) => (depositMinMinor === undefined || p >= depositMinMinor) && (depositMaxMinor === undefined || p <= depositMaxMinor));
}
