// The hosted pages' one script. It only enhances: every page works without
// it. It tells a framing parent about the page (CONTRACT 9 events) with the
// exact origin the server allowed, never "*", and moves focus to an error
// summary so that screen readers and keyboards start there.

(() => {
  // Styles may tell an enhanced page from a plain one.
  document.documentElement.classList.add("js");
  const parentOrigin = document.body.dataset.parentOrigin;
  const framed = window.parent !== window;

  /** Posts one event to the parent, only to the origin the server named. */
  function tell(type, detail) {
    if (!framed || !parentOrigin) return;
    window.parent.postMessage({ type, ...detail }, parentOrigin);
  }

  let lastHeight = 0;
  // The content's own height: the body's box, which has no minimum and so shrinks as well as grows. The document's
  // scrollHeight never reads below the frame's own height: a frame once sized up would never come back down.
  function reportHeight() {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    tell("cashier:resize", { height });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const summary = document.getElementById("error-summary");
    if (summary) summary.focus();
    tell("cashier:loaded", {});
    const result = document.querySelector("[data-cashier-result]");
    if (result) tell("cashier:result", JSON.parse(result.getAttribute("data-cashier-result")));
    for (const link of document.querySelectorAll("[data-cashier-close]")) link.addEventListener("click", () => tell("cashier:close", {}));
    reportHeight();
    if ("ResizeObserver" in window) new ResizeObserver(reportHeight).observe(document.body);
  });
})();
