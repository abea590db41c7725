// The hosted pages' one script. It only enhances: every page works without
// it. It tells a framing parent about the page (CONTRACT 9 and 12 events) with
// the exact origin the server allowed, never "*", and moves focus to an error
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

  // The session's end (CONTRACT 12, cashier:expired): the page is told how many seconds its session has left when it
  // is sent, and counts them on the browser's own clock from its arrival (so a wrong clock on the customer's
  // computer does not matter). A timer may be late in a tab in the background or a computer asleep: the deadline
  // is checked again when the page is shown again and when a form is sent. Posted once per page.
  let expiredTold = false;
  function watchExpiry() {
    const left = Number(document.body.dataset.expiresIn);
    if (document.body.dataset.expiresIn === undefined || !Number.isFinite(left)) return () => {};
    const deadline = Date.now() + left * 1000;
    const check = () => {
      if (expiredTold || Date.now() < deadline) return;
      expiredTold = true;
      tell("cashier:expired", {});
    };
    setTimeout(check, Math.min(left * 1000 + 100, 2 ** 31 - 1));
    document.addEventListener("visibilitychange", check);
    return check;
  }

  document.addEventListener("DOMContentLoaded", () => {
    const summary = document.getElementById("error-summary");
    if (summary) summary.focus();
    tell("cashier:loaded", {});
    const result = document.querySelector("[data-cashier-result]");
    if (result) tell("cashier:result", JSON.parse(result.getAttribute("data-cashier-result")));
    // A refusal the customer can act on (a form's errors, a declined card), as the server wrote it on the page.
    for (const el of document.querySelectorAll("[data-cashier-error]")) tell("cashier:error", JSON.parse(el.getAttribute("data-cashier-error")));
    // The page that answers for a session that has ended (a form sent after its end).
    if (document.querySelector("[data-cashier-expired]") && !expiredTold) {
      expiredTold = true;
      tell("cashier:expired", {});
    }
    const expiry = watchExpiry();
    // Sent after the form's own handlers: one that stopped the send (a second click) posts nothing.
    document.addEventListener("submit", (e) => {
      if (e.defaultPrevented) return;
      expiry();
      tell("cashier:submitted", {});
    });
    for (const link of document.querySelectorAll("[data-cashier-close]")) link.addEventListener("click", () => tell("cashier:close", {}));
    reportHeight();
    if ("ResizeObserver" in window) new ResizeObserver(reportHeight).observe(document.body);
  });
})();
