// The WhatsApp Cloud API network, one file a job: sending (adapter.ts, kinds.ts, over the Graph
// client graph.ts), templates (templates.ts), media download (media.ts), the embedded sign-up
// (signup.ts), and reading its webhook notifications (notification.ts, over one file per change
// field).
export { createCloudAdapter } from "./adapter";
export { NetworkRequestError, type UrlPolicy } from "./graph";
export { parseNotification } from "./notification";
export { downloadCloudMedia } from "./media";
export { exchangeSignupCode, readNumber, registerNumber, subscribeApp } from "./signup";
export { createCloudTemplate, deleteCloudTemplate, uploadTemplateMedia } from "./templates";
