/**
 * cashier.admin.v1.ConsoleAuthService, the console's calls before and around
 * a session: enrolment, sign-in, sign-out, the session itself, the operator's
 * own password, passkeys and work-view choices. The calls made before there is a session
 * (enrolment, sign-in) check their own token; the others authenticate the
 * console session in their context (app/console-session.ts).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type ConsoleAuthService,
  ChangePasswordResponseSchema,
  CompleteSignInResponseSchema,
  ConfirmEnrolmentTotpResponseSchema,
  DeletePasskeyResponseSchema,
  EnrolmentStep,
  FinishPasskeyRegistrationResponseSchema,
  GetConsoleSessionResponseSchema,
  GetEnrolmentResponseSchema,
  ListPasskeysResponseSchema,
  SetEnrolmentPasswordResponseSchema,
  SignInResponseSchema,
  SignOutResponseSchema,
  StartPasskeyRegistrationResponseSchema,
  TotpSetupSchema,
} from "../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import type { BackofficeDeps } from "../ports/ports.ts";
import { changePassword } from "../app/change-password.ts";
import { completeSignIn, signIn, type SecondFactor } from "../app/console-sign-in.ts";
import { authenticate, signOut } from "../app/console-session.ts";
import { confirmEnrolmentTotp, getEnrolment, setEnrolmentPassword, type TotpSetup } from "../app/enrolment.ts";
import { deletePasskey, finishPasskeyRegistration, startPasskeyRegistration } from "../app/passkeys.ts";
import { domainError } from "../../shared/errors.ts";
import type { ServiceImpl } from "../../rpc/grpc-adapter.ts";
import { invalidArgument, toRpcError } from "../../rpc/errors.ts";
import { callerOf, consoleCall, passkeyToProto, roleToProto, sessionToProto } from "./console-mappers.ts";
import { workPreferencesRpc } from "./work-preferences-rpc.ts";

const totpToProto = (t: TotpSetup | undefined) => (t ? create(TotpSetupSchema, { otpauthUri: t.uri, secretBase32: t.secret }) : undefined);

export function consoleAuthService(deps: BackofficeDeps): ServiceImpl<typeof ConsoleAuthService> {
  return {
    getEnrolment: (req) =>
      consoleCall(async () => {
        const v = await getEnrolment(deps, req.token, req.browserKey);
        return create(GetEnrolmentResponseSchema, {
          login: v.operator.login,
          role: roleToProto(v.operator.role),
          merchantIds: v.operator.merchantIds,
          step: v.step === "totp" ? EnrolmentStep.TOTP : EnrolmentStep.PASSWORD,
          expireTime: v.operator.enrolExpiresAt ? timestampFromDate(v.operator.enrolExpiresAt) : undefined,
          totp: totpToProto(v.totp),
          otherBrowser: v.otherBrowser ?? false,
        });
      }),

    setEnrolmentPassword: (req) =>
      consoleCall(async () => {
        const r = await setEnrolmentPassword(deps, callerOf(req.context), req.token, req.password, req.browserKey);
        if (!r.ok) throw toRpcError(r.error);
        return create(SetEnrolmentPasswordResponseSchema, { totp: totpToProto(r.totp) });
      }),

    confirmEnrolmentTotp: (req) =>
      consoleCall(async () => {
        const r = await confirmEnrolmentTotp(deps, callerOf(req.context), req.token, req.code, req.browserKey);
        if (!r.ok) throw toRpcError(r.error);
        return create(ConfirmEnrolmentTotpResponseSchema, { recoveryCodes: r.recoveryCodes, session: sessionToProto(r.session, deps.now()) });
      }),

    signIn: (req) =>
      consoleCall(async () => {
        const p = await signIn(deps, callerOf(req.context), req.login, req.password);
        return create(SignInResponseSchema, { pendingToken: p.token, expireTime: timestampFromDate(p.expiresAt), passkeyOptionsJson: p.passkeyOptions });
      }),

    completeSignIn: (req) =>
      consoleCall(async () => {
        const f = req.factor;
        let factor: SecondFactor;
        if (f.case === "totpCode") factor = { kind: "totp", code: f.value };
        else if (f.case === "recoveryCode") factor = { kind: "recovery", code: f.value };
        else if (f.case === "passkeyResponseJson") factor = { kind: "passkey", responseJson: f.value };
        else throw invalidArgument("factor", "is required: totp_code, recovery_code or passkey_response_json");
        const s = await completeSignIn(deps, callerOf(req.context), req.pendingToken, factor);
        return create(CompleteSignInResponseSchema, { session: sessionToProto(s, deps.now()) });
      }),

    signOut: (req) =>
      consoleCall(async () => {
        await signOut(deps, callerOf(req.context));
        return create(SignOutResponseSchema, {});
      }),

    getConsoleSession: (req) =>
      consoleCall(async () => {
        const who = await authenticate(deps, callerOf(req.context));
        return create(GetConsoleSessionResponseSchema, { session: sessionToProto({ idleEnd: who.idleEnd, operator: who.operator }, deps.now()) });
      }),

    changePassword: (req) =>
      consoleCall(async () => {
        const r = await changePassword(deps, callerOf(req.context), req.currentPassword, req.newPassword);
        if (!r.ok) throw toRpcError(r.error);
        return create(ChangePasswordResponseSchema, { endedSessions: r.endedSessions });
      }),

    startPasskeyRegistration: (req) =>
      consoleCall(async () => {
        const r = await startPasskeyRegistration(deps, callerOf(req.context));
        if (!r.ok) throw toRpcError(r.error);
        return create(StartPasskeyRegistrationResponseSchema, { optionsJson: r.options });
      }),

    finishPasskeyRegistration: (req) =>
      consoleCall(async () => {
        const r = await finishPasskeyRegistration(deps, callerOf(req.context), req.responseJson, req.name);
        if (!r.ok) throw toRpcError(r.error);
        return create(FinishPasskeyRegistrationResponseSchema, { passkey: passkeyToProto(r.passkey) });
      }),

    listPasskeys: (req) =>
      consoleCall(async () => {
        const who = await authenticate(deps, callerOf(req.context));
        return create(ListPasskeysResponseSchema, { passkeys: (await deps.operators.passkeys(who.scope.login)).map(passkeyToProto) });
      }),

    deletePasskey: (req) =>
      consoleCall(async () => {
        if (!(await deletePasskey(deps, callerOf(req.context), req.id))) throw toRpcError(domainError("NOT_FOUND", "no such passkey"));
        return create(DeletePasskeyResponseSchema, {});
      }),

    ...workPreferencesRpc(deps),
  };
}
