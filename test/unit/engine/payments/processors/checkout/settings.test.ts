/**
 * A Checkout.com account's settings: what a sale and a card payout need,
 * parsed, and every wrong or missing value named `settings.<field>` so that
 * the merchants file or the API refuses it before a customer pays.
 */
import t from "tap";
import { parseCheckoutSettings } from "../../../../../../engine/payments/processors/checkout/settings.ts";

const channel = "pc_zs5fqhybzc2e3jmq3efvybybpq";
const account = "ca_qcc7x4nxxk6efeogm7yczdnsxu";
const sender = { company_name: "Demo Gaming Ltd", reference: "m-demo", address_line1: "1 High St", city: "London", zip: "N1 7BQ", country: "GB" };

const faults = (raw: unknown) => {
  const r = parseCheckoutSettings(raw);
  return r.ok ? [] : r.faults.map((f) => f.field);
};

t.test("a sales-only account: the processing channel", async (t) => {
  t.same(parseCheckoutSettings({ processing_channel_id: channel }), { ok: true, value: { processingChannelId: channel } });
});

t.test("a paying-out account: the currency account and what gambling and money-transfer payouts carry", async (t) => {
  const r = parseCheckoutSettings({
    processing_channel_id: channel,
    payout_currency_account_id: account,
    payout_funds_transfer_type: "OG",
    payout_purpose: "Winnings",
    payout_billing_descriptor: "Casino withdrawal",
    payout_sender: { ...sender, address_line2: "Floor 2", state: "London" },
  });
  t.same(r, {
    ok: true,
    value: {
      processingChannelId: channel,
      payout: {
        currencyAccountId: account,
        fundsTransferType: "OG",
        purpose: "Winnings",
        billingDescriptor: "Casino withdrawal",
        sender: {
          companyName: "Demo Gaming Ltd",
          reference: "m-demo",
          addressLine1: "1 High St",
          addressLine2: "Floor 2",
          city: "London",
          state: "London",
          zip: "N1 7BQ",
          country: "GB",
        },
      },
    },
  });
  t.same(parseCheckoutSettings({ processing_channel_id: channel, payout_currency_account_id: account }), {
    ok: true,
    value: { processingChannelId: channel, payout: { currencyAccountId: account } },
  });
  t.same(
    faults({ processing_channel_id: channel, payout_currency_account_id: account, payout_funds_transfer_type: "C07" }),
    [],
    "Mastercard's three-character codes",
  );
});

t.test("every fault is named settings.<field>", async (t) => {
  const rows: [unknown, string[]][] = [
    [undefined, ["settings"]],
    [[], ["settings"]],
    [{}, ["settings.processing_channel_id"]],
    [{ processing_channel_id: "pc_short" }, ["settings.processing_channel_id"]],
    [{ processing_channel_id: "mer_q4dbxom5jbgudnjzjpz7j2z6uq" }, ["settings.processing_channel_id"]],
    [{ processing_channel_id: 7 }, ["settings.processing_channel_id"]],
    [{ processing_channel_id: channel, merchant_account: "x" }, ["settings.merchant_account"]],
    [{ processing_channel_id: channel, payout_currency_account_id: "ca_x" }, ["settings.payout_currency_account_id"]],
    [{ processing_channel_id: channel, payout_funds_transfer_type: "OG" }, ["settings.payout_currency_account_id"]],
    [{ processing_channel_id: channel, payout_currency_account_id: account, payout_funds_transfer_type: "og" }, ["settings.payout_funds_transfer_type"]],
    [{ processing_channel_id: channel, payout_currency_account_id: account, payout_purpose: " " }, ["settings.payout_purpose"]],
    [
      { processing_channel_id: channel, payout_currency_account_id: account, payout_billing_descriptor: "x".repeat(51) },
      ["settings.payout_billing_descriptor"],
    ],
    [{ processing_channel_id: channel, payout_currency_account_id: account, payout_sender: "Demo Gaming" }, ["settings.payout_sender"]],
    [
      { processing_channel_id: channel, payout_currency_account_id: account, payout_sender: { ...sender, country: "UK", company_name: undefined, nick: "x" } },
      ["settings.payout_sender.nick", "settings.payout_sender.country", "settings.payout_sender.company_name"],
    ],
  ];
  for (const [raw, fields] of rows) t.same(faults(raw), fields, JSON.stringify(raw) ?? "undefined");
  const r = parseCheckoutSettings({ processing_channel_id: "pc_short" });
  t.match(r, { ok: false, faults: [{ field: "settings.processing_channel_id", description: /pc_ and 26/ }] }, "the fault says what is expected");
});
