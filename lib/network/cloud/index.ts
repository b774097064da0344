// The WhatsApp Cloud API network: one file a job.
export { createCloudAdapter } from "./adapter";
export { callGraph, type CloudAdapterOptions, joinUrl, NetworkRequestError, redactFailure, type UrlPolicy } from "./graph";
export { type CloudWebhook, cloudWebhookSchema, parseCloudMessage, parseCloudWebhook } from "./inbound";
export { downloadCloudMedia } from "./media";
