/**
 * Merchants and frontends through cashier.admin.v1, so an operator never
 * edits the database by hand. Input is checked by the same parser as the
 * merchants file (engine/payments/app/merchant-spec.ts), each fault named as a field of
 * the request. Secrets are write-only: at least 16 characters, stored sealed,
 * never returned; a rotation keeps the old secret valid for an overlap.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  CreateFrontendResponseSchema,
  CreateMerchantResponseSchema,
  GetMerchantResponseSchema,
  ListMerchantsResponseSchema,
  RotateMerchantSecretResponseSchema,
  UpdateFrontendResponseSchema,
  UpdateMerchantResponseSchema,
  type AdminService,
} from "../../../gen/cashier/admin/v1/admin_service_pb.js";
import { MerchantSchema, PayoutApproval, type Frontend, type Merchant } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { FRONTEND_FIELDS, type FrontendField, frontendEntryOf, frontendToProto, mergeFrontend, setInFrontend } from "./frontend-mappers.ts";
import { UnknownLogoError } from "../../shared/branding.ts";
import { MerchantsFileError, MIN_SECRET_LENGTH, parseFrontend, parseMerchantEntry } from "../../payments/index.ts";
import { domainError } from "../../shared/errors.ts";
import type { CallbackUrlCheck, MerchantAdminStore, MerchantSettings, MerchantView } from "../../payments/index.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { checkText, invalidArgument, toRpcError } from "../../rpc/errors.ts";
import { pageOf, readPage } from "../../payments/rpc/index.ts";

export interface MerchantAdminDeps {
  merchantStore: MerchantAdminStore;
  /** The SSRF guard's check of a callback address at save: an address every call would refuse is refused now. */
  checkCallbackUrl: CallbackUrlCheck;
}

export const DEFAULT_OVERLAP_SECONDS = 86_400;
export const MAX_OVERLAP_SECONDS = 604_800;

const SETTINGS = ["site_id", "platform_url", "validation_url", "update_payout_url", "update_payout_statuses", "payout_approval", "processors"] as const;

/** Mask paths -> the settings they name. */
const FIELD_OF: Record<(typeof SETTINGS)[number], keyof MerchantSettings> = {
  site_id: "siteId",
  platform_url: "platformUrl",
  validation_url: "validationUrl",
  update_payout_url: "updatePayoutUrl",
  update_payout_statuses: "updatePayoutStatuses",
  payout_approval: "payoutApproval",
  processors: "processors",
};

function merchantToProto(v: MerchantView): Merchant {
  return create(MerchantSchema, {
    merchantId: v.merchantId,
    siteId: v.siteId ?? 0,
    platformUrl: v.platformUrl ?? "",
    validationUrl: v.validationUrl ?? "",
    updatePayoutUrl: v.updatePayoutUrl ?? "",
    // Stored as no letter; told as the word, since an empty proto3 string means "not set" (the default, all five).
    updatePayoutStatuses: v.updatePayoutStatuses === "" ? "none" : v.updatePayoutStatuses,
    payoutApproval: v.payoutApproval === "manual" ? PayoutApproval.MANUAL : PayoutApproval.AUTO,
    processors: v.processors,
    frontends: v.frontends.map(frontendToProto),
    createTime: timestampFromDate(v.createdAt),
    updateTime: timestampFromDate(v.updatedAt),
    previousSecretExpireTime: v.previousSecretExpiresAt ? timestampFromDate(v.previousSecretExpiresAt) : undefined,
  });
}

/** Proto -> the merchants file's snake_case entry, for the shared parser. */
function entryOf(m: Merchant, secret: string, frontends: Frontend[]): Record<string, unknown> {
  const text = (s: string) => (s === "" ? undefined : s);
  return {
    merchant_id: m.merchantId,
    secret,
    site_id: m.siteId === 0 ? undefined : m.siteId,
    platform_url: text(m.platformUrl),
    validation_url: text(m.validationUrl),
    update_payout_url: text(m.updatePayoutUrl),
    update_payout_statuses: text(m.updatePayoutStatuses),
    payout_approval: m.payoutApproval === PayoutApproval.MANUAL ? "manual" : m.payoutApproval === PayoutApproval.AUTO ? "auto" : undefined,
    processors: m.processors.length > 0 ? m.processors : undefined,
    frontends: frontends.map((f, j) => frontendEntryOf(f, `merchant.frontends[${j}]`)),
  };
}

/** The shared parser's refusal as INVALID_ARGUMENT on the field it names. */
function parsed<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof MerchantsFileError)) throw err;
    throw invalidArgument(err.field, err.problem);
  }
}

function checkId(merchantId: string, field = "merchant_id"): void {
  if (merchantId === "") throw invalidArgument(field, "is required");
  checkText(field, merchantId);
}

function checkSecret(secret: string, field: string): void {
  if ([...secret].length < MIN_SECRET_LENGTH) throw invalidArgument(field, `must be at least ${MIN_SECRET_LENGTH} characters`);
  checkText(field, secret);
}

/** Whether a settings field carries a value in the request (proto3 has no presence for these). */
function setInRequest(m: Merchant, field: (typeof SETTINGS)[number]): boolean {
  switch (field) {
    case "site_id":
      return m.siteId !== 0;
    case "platform_url":
      return m.platformUrl !== "";
    case "validation_url":
      return m.validationUrl !== "";
    case "update_payout_url":
      return m.updatePayoutUrl !== "";
    case "update_payout_statuses":
      return m.updatePayoutStatuses !== "";
    case "payout_approval":
      return m.payoutApproval !== PayoutApproval.UNSPECIFIED;
    case "processors":
      return m.processors.length > 0;
  }
}

/** AUTO or MANUAL only; UNSPECIFIED only where it may mean the default. */
function checkApproval(v: PayoutApproval, required: boolean): void {
  const known = v === PayoutApproval.AUTO || v === PayoutApproval.MANUAL;
  if (!known && (required || v !== PayoutApproval.UNSPECIFIED))
    throw invalidArgument("merchant.payout_approval", "must be PAYOUT_APPROVAL_AUTO or PAYOUT_APPROVAL_MANUAL");
}

/** The callback addresses a save sets, by their mask path, with the value each takes. */
const CALLBACK_URLS = [
  ["platform_url", "platformUrl"],
  ["validation_url", "validationUrl"],
  ["update_payout_url", "updatePayoutUrl"],
] as const;

/**
 * Refuses a callback address the SSRF guard would refuse to call, naming its field with the guard's own words. Only
 * the addresses `chosen` are checked: an address stored before (or while private addresses were allowed) does not
 * block a change to another setting; it is refused at each call, as before.
 */
async function checkCallbackUrls(
  check: CallbackUrlCheck,
  spec: { platformUrl?: string | null; validationUrl?: string | null; updatePayoutUrl?: string | null },
  chosen: (field: string) => boolean,
): Promise<void> {
  for (const [field, key] of CALLBACK_URLS) {
    const url = spec[key];
    if (!url || !chosen(field)) continue;
    const problem = await check(url);
    if (problem) throw invalidArgument(`merchant.${field}`, problem);
  }
}

/** A branding's logo_sha256 the engine does not hold. */
const noLogo = () => invalidArgument("frontend.branding.logo_sha256", "names no stored logo (give logo_png instead)");
const notFound = (merchantId: string) => toRpcError(domainError("NOT_FOUND", `no merchant ${merchantId}`));

type MerchantCalls = Pick<
  ServiceImpl<typeof AdminService>,
  "createMerchant" | "updateMerchant" | "getMerchant" | "listMerchants" | "rotateMerchantSecret" | "createFrontend" | "updateFrontend"
>;

export function merchantAdmin(deps: MerchantAdminDeps): MerchantCalls {
  const store = deps.merchantStore;
  const current = async (merchantId: string) => {
    const v = await store.view(merchantId);
    if (!v) throw notFound(merchantId);
    return merchantToProto(v);
  };
  return {
    async createMerchant(req) {
      if (!req.merchant) throw invalidArgument("merchant", "is required");
      checkId(req.merchant.merchantId, "merchant.merchant_id");
      checkApproval(req.merchant.payoutApproval, false);
      checkSecret(req.secret, "secret");
      const spec = parsed(() => parseMerchantEntry(entryOf(req.merchant!, req.secret, req.merchant!.frontends), "merchant"));
      await checkCallbackUrls(deps.checkCallbackUrl, spec, () => true);
      const made = await store.create(spec).catch((err: unknown) => {
        if (!(err instanceof UnknownLogoError)) throw err;
        const i = spec.frontends.findIndex((f) => f.name === err.frontend);
        throw invalidArgument(`merchant.frontends[${i}].branding.logo_sha256`, "names no stored logo (give logo_png instead)");
      });
      if (!made) throw toRpcError(domainError("ALREADY_EXISTS", `merchant ${spec.merchantId} already exists`));
      return create(CreateMerchantResponseSchema, { merchant: await current(spec.merchantId) });
    },

    async updateMerchant(req) {
      if (!req.merchant) throw invalidArgument("merchant", "is required");
      checkId(req.merchant.merchantId, "merchant.merchant_id");
      const paths = req.updateMask?.paths ?? [];
      const unknown = paths.find((p) => p !== "*" && !(SETTINGS as readonly string[]).includes(p));
      if (unknown)
        throw invalidArgument(
          "update_mask",
          `${unknown} cannot be updated here (use ${SETTINGS.join(", ")} or *; secrets through RotateMerchantSecret, frontends through UpdateFrontend)`,
        );
      // With no mask (the fields set) or "*" (all of them), frontends set here would be a change this call does not make.
      if ((paths.length === 0 || paths.includes("*")) && req.merchant.frontends.length > 0)
        throw invalidArgument("merchant.frontends", "cannot be updated here: use CreateFrontend and UpdateFrontend");
      const existing = await current(req.merchant.merchantId);
      // AIP-134: no mask changes the fields that are set; "*" replaces them all.
      const given = req.merchant;
      const chosen = new Set<string>(paths.includes("*") ? SETTINGS : paths.length > 0 ? paths : SETTINGS.filter((f) => setInRequest(given, f)));
      if (chosen.has("payout_approval")) checkApproval(given.payoutApproval, !paths.includes("*") && paths.length > 0);
      const pick = <K extends keyof Merchant>(field: (typeof SETTINGS)[number], key: K): Merchant[K] =>
        chosen.has(field) ? req.merchant![key] : existing[key];
      const merged = create(MerchantSchema, {
        merchantId: existing.merchantId,
        siteId: pick("site_id", "siteId"),
        platformUrl: pick("platform_url", "platformUrl"),
        validationUrl: pick("validation_url", "validationUrl"),
        updatePayoutUrl: pick("update_payout_url", "updatePayoutUrl"),
        updatePayoutStatuses: pick("update_payout_statuses", "updatePayoutStatuses"),
        payoutApproval: pick("payout_approval", "payoutApproval") || existing.payoutApproval,
        processors: pick("processors", "processors"),
      });
      // `processors` may name the merchant's own accounts, which this request does not carry: the stored ones.
      const accounts = ((await store.processorAccounts(existing.merchantId)) ?? []).map((a) => a.name);
      const spec = parsed(() => parseMerchantEntry(entryOf(merged, "unchanged-secret", existing.frontends), "merchant", { accounts }));
      const { merchantId: _id, secret: _s, frontends: _f, ...settings } = spec;
      await checkCallbackUrls(deps.checkCallbackUrl, settings, (f) => chosen.has(f));
      const only = new Set([...chosen].map((f) => FIELD_OF[f as (typeof SETTINGS)[number]]));
      if (!(await store.update(existing.merchantId, settings, only))) throw notFound(existing.merchantId);
      return create(UpdateMerchantResponseSchema, { merchant: await current(existing.merchantId) });
    },

    async getMerchant(req) {
      checkId(req.merchantId);
      return create(GetMerchantResponseSchema, { merchant: await current(req.merchantId) });
    },

    async listMerchants(req) {
      const { read, limit, after } = readPage<string>(req, "string");
      const page = pageOf(await store.list(after, read), limit, (m) => m.merchantId);
      return create(ListMerchantsResponseSchema, { merchants: page.items.map(merchantToProto), nextPageToken: page.nextPageToken });
    },

    async rotateMerchantSecret(req) {
      checkId(req.merchantId);
      checkSecret(req.newSecret, "new_secret");
      if (req.overlapSeconds < 0 || req.overlapSeconds > MAX_OVERLAP_SECONDS)
        throw invalidArgument("overlap_seconds", `must be 0 (the default, ${DEFAULT_OVERLAP_SECONDS}) to ${MAX_OVERLAP_SECONDS}`);
      if (!(await store.rotateSecret(req.merchantId, req.newSecret, req.overlapSeconds || DEFAULT_OVERLAP_SECONDS))) throw notFound(req.merchantId);
      return create(RotateMerchantSecretResponseSchema, { merchant: await current(req.merchantId) });
    },

    async createFrontend(req) {
      checkId(req.merchantId);
      if (!req.frontend) throw invalidArgument("frontend", "is required");
      const f = parsed(() => parseFrontend(frontendEntryOf(req.frontend!, "frontend"), "frontend"));
      const outcome = await store.putFrontend(req.merchantId, f, "create");
      if (outcome === "no-merchant") throw notFound(req.merchantId);
      if (outcome === "no-logo") throw noLogo();
      if (outcome === "exists") throw toRpcError(domainError("ALREADY_EXISTS", `frontend ${f.name} already exists for ${req.merchantId}`));
      return create(CreateFrontendResponseSchema, { merchant: await current(req.merchantId) });
    },

    async updateFrontend(req) {
      checkId(req.merchantId);
      if (!req.frontend || req.frontend.name === "") throw invalidArgument("frontend.name", "is required");
      const existing = (await current(req.merchantId)).frontends.find((f) => f.name === req.frontend!.name);
      if (!existing) throw toRpcError(domainError("NOT_FOUND", `no frontend ${req.frontend.name} for ${req.merchantId}`));
      const paths = req.updateMask?.paths ?? [];
      const unknown = paths.find((p) => !(FRONTEND_FIELDS as readonly string[]).includes(p));
      if (unknown) throw invalidArgument("update_mask", `${unknown} cannot be updated (use ${FRONTEND_FIELDS.join(", ")})`);
      // AIP-134: no mask changes base_currency, currencies and whatever else the request sets.
      const given = req.frontend;
      const chosen = new Set<FrontendField>(
        paths.length > 0 ? (paths as FrontendField[]) : FRONTEND_FIELDS.filter((f) => f === "base_currency" || f === "currencies" || setInFrontend(given, f)),
      );
      const merged = mergeFrontend(existing, given, chosen);
      const f = parsed(() => parseFrontend(frontendEntryOf(merged, "frontend"), "frontend"));
      if ((await store.putFrontend(req.merchantId, f, "update")) === "no-logo") throw noLogo();
      return create(UpdateFrontendResponseSchema, { merchant: await current(req.merchantId) });
    },
  };
}
