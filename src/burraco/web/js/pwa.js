// The installable app: registers the service worker (sw.js, which keeps the static shell for
// offline start-up; play and the API always need the network).

export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no worker: the app works the same, only not offline
  });
}
