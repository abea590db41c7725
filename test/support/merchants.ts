/** The merchants every service test starts with (CONTRACT section 1 file format). */
export const SECRET = "test-secret-0123456789";
export const OTHER_SECRET = "other-secret-9876543210";

export const MERCHANTS = {
  merchants: [
    {
      merchant_id: "m-test",
      secret: SECRET,
      site_id: 7,
      processors: ["sim-a", "sim-b"],
      frontends: [
        { name: "test-usd", base_currency: "USD", currencies: ["USD", "EUR", "JPY", "BHD"] },
        { name: "test-eur", base_currency: "EUR" },
      ],
    },
    { merchant_id: "m-other", secret: OTHER_SECRET, frontends: [{ name: "other-usd", base_currency: "USD" }] },
    { merchant_id: "m-manual", secret: SECRET, payout_approval: "manual", frontends: [{ name: "manual-usd", base_currency: "USD" }] },
    { merchant_id: "m-single", secret: SECRET, processors: ["sim-a"], frontends: [{ name: "single-usd", base_currency: "USD" }] },
  ],
};
