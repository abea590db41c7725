// Minimal typings for currency-codes (the package ships none).
declare module "currency-codes" {
  interface CurrencyCodeRecord {
    code: string;
    number: string;
    digits: number;
    currency: string;
    countries: string[];
  }
  const cc: {
    code(code: string): CurrencyCodeRecord | undefined;
    codes(): string[];
  };
  export default cc;
}
