import { authDenialReadsAsPending } from "./auth-denial-reads-as-pending.js";
import { authForeignReceiptsShown } from "./auth-foreign-receipts-shown.js";
import { cancelCancelledAsRolledBack } from "./cancel-cancelled-as-rolled-back.js";
import { cancelCancellingSkipped } from "./cancel-cancelling-skipped.js";
import { cancelSettledReportedCancelled } from "./cancel-settled-reported-cancelled.js";
import { capExpiredEpochsPurged } from "./cap-expired-epochs-purged.js";
import { capSettledReceiptsEvicted } from "./cap-settled-receipts-evicted.js";
import { durLateSettlementAdopted } from "./dur-late-settlement-adopted.js";
import { durReplayAfterRestart } from "./dur-replay-after-restart.js";
import { durResumedAfterRestart } from "./dur-resumed-after-restart.js";
import { durStoreMadeInPlace } from "./dur-store-made-in-place.js";
import { durUnknownReportedSucceeded } from "./dur-unknown-reported-succeeded.js";
import { envErrorsWithoutIsError } from "./env-errors-without-iserror.js";
import { epochExpiryToldLate } from "./epoch-expiry-told-late.js";
import { epochStaleAuthorityRenewed } from "./epoch-stale-authority-renewed.js";
import { evtCursorSkipsAfterEmptyPage } from "./evt-cursor-skips-after-empty-page.js";
import { evtFeedSpansWorkspaces } from "./evt-feed-spans-workspaces.js";
import { evtRunningEventsDropped } from "./evt-running-events-dropped.js";
import { idemConflictAsDuplicate } from "./idem-conflict-as-duplicate.js";
import { idemFreshOperationPerRetry } from "./idem-fresh-operation-per-retry.js";
import { idemKeyIgnoresTool } from "./idem-key-ignores-tool.js";
import { inputSequenceRenumbered } from "./input-sequence-renumbered.js";
import { cancelReplyOffSchema } from "./cancel-reply-off-schema.js";
import { durReopenLeavesUnfinished } from "./dur-reopen-leaves-unfinished.js";
import { evtFeedIgnoresPairing } from "./evt-feed-ignores-pairing.js";
import { fileReadCrlfNormalised } from "./file-read-crlf-normalised.js";
import { idemDuplicateUnmarked } from "./idem-duplicate-unmarked.js";
import { opRunningShownQueued } from "./op-running-shown-queued.js";
import { revRevisionOfAnotherWorkspace } from "./rev-revision-of-another-workspace.js";
import { serialNoTargetQueue } from "./serial-no-target-queue.js";
import { cancelDecisionLeftOpen } from "./cancel-decision-left-open.js";
import { cancelSettledSaveUndone } from "./cancel-settled-save-undone.js";
import { inputInterruptTakenForCancel } from "./input-interrupt-taken-for-cancel.js";
import { inputInterruptReadAsCancel } from "./input-interrupt-read-as-cancel.js";
import { inputCreationLeaseUnknown } from "./input-creation-lease-unknown.js";
import { inputAndroidUnordered } from "./input-android-unordered.js";
import { inputConcurrentSentTwice } from "./input-concurrent-sent-twice.js";
import { durUnknownDispatchedOnRetry } from "./dur-unknown-dispatched-on-retry.js";
import { durLockFileTakenOver } from "./dur-lock-file-taken-over.js";
import { evtCursorRestartsAfterRestart } from "./evt-cursor-restarts-after-restart.js";
import { fileWriteCrlfNormalised } from "./file-write-crlf-normalised.js";
import type { Mutant } from "./mutant.js";
import { opAdmissionAsCompletion } from "./op-admission-as-completion.js";
import { opFailureAsMcpError } from "./op-failure-as-mcp-error.js";
import { revStaleRevisionDispatched } from "./rev-stale-revision-dispatched.js";
import { revStaleRevisionRebased } from "./rev-stale-revision-rebased.js";
import { schPrototypeKeysDropped } from "./sch-prototype-keys-dropped.js";
import { schUnknownFieldsDropped } from "./sch-unknown-fields-dropped.js";
import { UNTYPED_CODE_MUTANTS } from "./untyped-codes.js";
import { envCaptureSizeInPoints } from "./env-capture-size-in-points.js";
import { envCaptureCached } from "./env-capture-cached.js";
import { opAwaitingUserRecordedRunning } from "./op-awaiting-user-recorded-running.js";
import { opFailedOpenNothingDone } from "./op-failed-open-nothing-done.js";
import { opErrorPageAsFailure } from "./op-error-page-as-failure.js";
import { opChatCompleteOnDelivery } from "./op-chat-complete-on-delivery.js";
import { opLaunchFailedUnconfirmedScreen } from "./op-launch-failed-unconfirmed-screen.js";
import { opUploadFailedUnconfirmedAcceptance } from "./op-upload-failed-unconfirmed-acceptance.js";
import { opCloseSavedFilesSorted } from "./op-close-saved-files-sorted.js";
import { revFileReadFromEditor } from "./rev-file-read-from-editor.js";
import { opCreatedLeaseHashed } from "./op-created-lease-hashed.js";
import { schRuntimeKindInferred } from "./sch-runtime-kind-inferred.js";
import { schSettingsOfOtherSectionsDropped } from "./sch-settings-of-other-sections-dropped.js";

/** Every deliberately broken broker, at least one per rule family. */
export const MUTANTS: readonly Mutant[] = [
  envErrorsWithoutIsError,
  schUnknownFieldsDropped,
  schPrototypeKeysDropped,
  authDenialReadsAsPending,
  authForeignReceiptsShown,
  opAdmissionAsCompletion,
  opFailureAsMcpError,
  revStaleRevisionRebased,
  revStaleRevisionDispatched,
  idemFreshOperationPerRetry,
  idemConflictAsDuplicate,
  idemKeyIgnoresTool,
  epochStaleAuthorityRenewed,
  epochExpiryToldLate,
  inputSequenceRenumbered,
  cancelSettledReportedCancelled,
  cancelCancellingSkipped,
  durReplayAfterRestart,
  durResumedAfterRestart,
  durUnknownReportedSucceeded,
  durLateSettlementAdopted,
  durStoreMadeInPlace,
  capExpiredEpochsPurged,
  capSettledReceiptsEvicted,
  evtRunningEventsDropped,
  evtFeedSpansWorkspaces,
  evtCursorSkipsAfterEmptyPage,
  cancelReplyOffSchema,
  durReopenLeavesUnfinished,
  evtFeedIgnoresPairing,
  fileReadCrlfNormalised,
  idemDuplicateUnmarked,
  opRunningShownQueued,
  revRevisionOfAnotherWorkspace,
  serialNoTargetQueue,
  envCaptureSizeInPoints,
  envCaptureCached,
  opAwaitingUserRecordedRunning,
  opFailedOpenNothingDone,
  opErrorPageAsFailure,
  opChatCompleteOnDelivery,
  opLaunchFailedUnconfirmedScreen,
  opUploadFailedUnconfirmedAcceptance,
  opCloseSavedFilesSorted,
  revFileReadFromEditor,
  opCreatedLeaseHashed,
  cancelCancelledAsRolledBack,
  cancelDecisionLeftOpen,
  cancelSettledSaveUndone,
  inputInterruptTakenForCancel,
  inputInterruptReadAsCancel,
  inputCreationLeaseUnknown,
  inputAndroidUnordered,
  inputConcurrentSentTwice,
  durUnknownDispatchedOnRetry,
  durLockFileTakenOver,
  evtCursorRestartsAfterRestart,
  fileWriteCrlfNormalised,
  schRuntimeKindInferred,
  schSettingsOfOtherSectionsDropped,
];

/** Every mutant a run can name: those above (npm test's gate) and the generated untyped-<code> ones that lomi-conformance teeth adds. */
export const ALL_MUTANTS: readonly Mutant[] = [...MUTANTS, ...UNTYPED_CODE_MUTANTS];

/** The names a --mutant may take, as an error message lists them. */
export const mutantNames = () =>
  `${MUTANTS.map((m) => m.name).join(", ")}, or untyped-<error code> (${UNTYPED_CODE_MUTANTS.length} of them, e.g. ${UNTYPED_CODE_MUTANTS[0]!.name})`;
