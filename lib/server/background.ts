/** Background work started with the server (the job runner joins here). */
export async function startBackgroundWork() {}

export async function stopBackgroundWork() {}
