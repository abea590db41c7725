// The hosted payment fields' script (CONTRACT 12). The page works without it:
// the form posts and its errors show in the frame. With it, the page tells its
// framing parent, only at the exact origin the server allowed (never "*"):
// - cashier:card_token (card_token, brand, masked, expiry) once a card was
//   taken and its token minted;
// - cashier:error (code, message) when the form came back with errors, unless
//   the page's error summary is told to the parent by the pages' own script.
// A framed page with no allowed parent origin tells nothing.

(() => {
  const parentOrigin = document.body.dataset.parentOrigin;
  const framed = window.parent !== window;

  function tell(type, detail) {
    if (!framed || !parentOrigin) return;
    window.parent.postMessage({ type, ...detail }, parentOrigin);
  }

  function run() {
    const minted = document.querySelector("[data-fields-token]");
    if (minted) tell("cashier:card_token", JSON.parse(minted.getAttribute("data-fields-token")));
    const refused = document.querySelector("[data-fields-error]");
    if (refused && !document.querySelector("[data-cashier-error]")) tell("cashier:error", JSON.parse(refused.getAttribute("data-fields-error")));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", run);
  else run();
})();
