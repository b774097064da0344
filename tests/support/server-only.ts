// Tests run verbs outside Next.js's server bundle: "server-only" guards nothing here.
export {};
