/**
 * The items of a list (or the letters of a string) each once, in the order of
 * their first appearance: a merchant's cascade of processors and its
 * UpdatePayout letters, where a repeat would act twice.
 */
export function onceEach(list: string): string;
export function onceEach(list: readonly string[]): string[];
export function onceEach(list: string | readonly string[]): string | string[] {
  const unique = [...new Set(list)];
  return typeof list === "string" ? unique.join("") : unique;
}
