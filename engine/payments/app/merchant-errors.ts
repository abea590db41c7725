/** The refusal of a merchant setting, shared by every parser of the merchants file's entries. */

/** A bad entry: the field at fault (a path such as merchants[0].frontends[1].base_currency) and what is wrong. */
export class MerchantsFileError extends Error {
  readonly field: string;
  readonly problem: string;
  constructor(field: string, problem: string) {
    super(field ? `${field} ${problem}` : problem);
    this.field = field;
    this.problem = problem;
  }
}
