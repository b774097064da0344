// The WhatsApp Cloud API network, one file a job: sending (adapter.ts, kinds.ts, graph.ts),
// templates (templates.ts), media download (media.ts), and reading its webhook notifications
// (notification.ts, over one file per change field).
export { createCloudAdapter } from "./adapter";
export { callGraph, joinUrl, NetworkRequestError, type UrlPolicy } from "./graph";
export { parseNotification } from "./notification";
export { downloadCloudMedia } from "./media";
export { createCloudTemplate, deleteCloudTemplate, uploadTemplateMedia } from "./templates";
