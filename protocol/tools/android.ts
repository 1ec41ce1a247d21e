import { z } from "zod";
import { field, id } from "../fields.js";
import { changes, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

/** An Android application ID such as com.example.app. */
export const appId = z
  .string()
  .max(255)
  .regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, "an Android application ID such as com.example.app");

const androidLaunchResult = z.strictObject({
  panelId: id,
  generation: id,
  appId,
  /** The launch intent reached the runtime: the postcondition this operation confirms. */
  intentDelivered: z.literal(true),
  /** Lomi cannot tell from the intent whether the expected screen appeared; look (lomi_capture) before relying on it. */
  screenConfirmed: z.literal(false),
});

export const androidLaunch = {
  name: "lomi_android_launch",
  kind: "operation",
  title: "Launch an app in an Android runtime",
  description:
    "Delivers a launch intent for appId to the exact Android runtime (panelId and its current generation). Returns an operationId: admission, not completion. It succeeds when the intent is delivered; its result says the screen is not confirmed, since delivery does not prove the expected screen appeared.",
  hints: changes({ destructive: false }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    projectId: field.anchorProjectId,
    panelId: field.panelId,
    generation: field.androidGeneration,
    appId: appId.describe(
      "The application ID of an app installed on the device, such as com.example.app (at most 255 characters); an app the device does not have is NOT_FOUND.",
    ),
    activity: z
      .string()
      .min(1)
      .max(255)
      .describe("The activity to start, such as .MainActivity (1-255 characters); leave it out for the app's launcher activity.")
      .optional(),
    retryEpoch: field.retryEpoch,
    requestKey: field.requestKey,
  }),
  result: androidLaunchResult,
  data: admissionData("lomi_android_launch", androidLaunchResult),
  generationField: "generation",
  serializeOn: "panelId",
} satisfies OperationContract;
