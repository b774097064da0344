// The WhatsApp Cloud API network: one file a job.
export { createCloudAdapter } from "./adapter";
export { callGraph, joinUrl, NetworkRequestError, redactFailure, type UrlPolicy } from "./graph";
export { cloudWebhookSchema, parseCloudMessage, parseCloudWebhook } from "./inbound";
export { downloadCloudMedia } from "./media";
