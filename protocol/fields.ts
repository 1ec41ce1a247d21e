import { z } from "zod";

// Field schemas shared by tool inputs, receipts and the native bridge.
export const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "an ID: letters, digits, . _ : -");
export const decimalRevision = z.string().regex(/^(0|[1-9][0-9]{0,18})$/, "a decimal revision such as \"7\"");
export const retryEpoch = z.string().min(8).max(128).regex(/^[A-Za-z0-9_-]+$/, "a retry epoch from lomi_connect");
export const requestKey = z.string().min(1).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, "a request key: letters, digits, . _ : -");
export const isoTime = z.iso.datetime();
/** Paths relative to the project root; the native validator refuses ones that escape it. */
export const relativePath = z.string().max(1024);
