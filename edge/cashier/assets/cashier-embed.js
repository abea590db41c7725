// Cashier's embed script for the platform's own page (CONTRACT 12), served at /cashier.js. No dependency, no build
// step, plain ES2017. It frames the hosted Cashier (Cashier.open) or the hosted payment fields (Cashier.fields),
// sizes the frame as the page inside asks, and hands the page's events to the platform's onEvent. A message is
// believed only when it comes from the origin of the framed address AND from that very frame's window: another
// frame of the same origin (a second Cashier), another window or another site posts nothing the platform sees.

(() => {
  /** How long the first page in the frame has to say cashier:loaded before the script reports it refused. */
  const LOAD_TIMEOUT_MS = 10000;

  /** The script's own error codes, beside the ones the pages post. */
  const NOT_LOADED = "frame_not_loaded";

  function containerOf(container) {
    const el = typeof container === "string" ? document.querySelector(container) : container;
    if (!el || typeof el.appendChild !== "function") throw new TypeError("Cashier: container must be an element or a selector of one");
    return el;
  }

  function addressOf(url) {
    if (typeof url !== "string" || url === "") throw new TypeError("Cashier: url must be the redirect_url of a session");
    const u = new URL(url, location.href);
    if (u.protocol !== "https:" && u.protocol !== "http:") throw new TypeError("Cashier: url must be an http(s) address");
    // The pages post their events only to the parent they are told of, checked against allowed_origins.
    if (!u.searchParams.has("parent")) u.searchParams.set("parent", location.origin);
    return u;
  }

  /** Frames `url` in `container`; `onFirst` gets every event before onEvent (the fields' promise). */
  function frame(options, kind, onFirst) {
    const o = options || {};
    const target = containerOf(o.container);
    const address = addressOf(o.url);
    const origin = address.origin;
    const onEvent = typeof o.onEvent === "function" ? o.onEvent : () => {};
    const timeout = Number.isFinite(o.loadTimeout) && o.loadTimeout > 0 ? o.loadTimeout : LOAD_TIMEOUT_MS;

    const iframe = document.createElement("iframe");
    iframe.src = address.href;
    iframe.title = typeof o.title === "string" && o.title ? o.title : kind === "fields" ? "Card details" : "Cashier";
    iframe.setAttribute("data-cashier-frame", kind);
    iframe.style.width = "100%";
    iframe.style.border = "0";
    iframe.style.display = "block";

    let open = true;
    let loaded = false;

    function deliver(event) {
      onFirst(event);
      try {
        onEvent(event);
      } catch (err) {
        // The platform's handler failing must not stop the next events; the browser's console shows it.
        setTimeout(() => {
          throw err;
        });
      }
    }

    function listener(e) {
      if (!open || e.origin !== origin || e.source !== iframe.contentWindow) return;
      const data = e.data;
      if (!data || typeof data !== "object" || typeof data.type !== "string" || data.type.indexOf("cashier:") !== 0) return;
      const event = Object.assign({}, data, { type: data.type });
      if (event.type === "cashier:loaded") {
        loaded = true;
        clearTimeout(timer);
      }
      if (event.type === "cashier:resize" && Number.isFinite(event.height) && event.height >= 0) iframe.style.height = `${Math.ceil(event.height)}px`;
      deliver(event);
    }

    // A frame the browser refused (the Cashier's frame-ancestors do not list this page's origin, a used or expired
    // link, a network error) fires no event the page can read: no cashier:loaded in time is the only sign.
    const timer = setTimeout(() => {
      if (!open || loaded) return;
      deliver({
        type: "cashier:error",
        code: NOT_LOADED,
        message: "The Cashier did not load in its frame: this page's origin may not be in the frontend's allowed_origins, or the link was used or expired.",
      });
    }, timeout);

    window.addEventListener("message", listener);
    target.appendChild(iframe);

    function close() {
      if (!open) return;
      open = false;
      clearTimeout(timer);
      window.removeEventListener("message", listener);
      if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      onFirst({ type: "cashier:closed-by-page" });
    }

    return { frame: iframe, close };
  }

  /** Frames the hosted Cashier at a session's redirect_url; returns { frame, close }. */
  function openCashier(options) {
    return frame(options, "cashier", () => {});
  }

  /**
   * Frames the hosted payment fields; returns a promise of the card token's data ({ card_token, brand, masked,
   * expiry }) that also carries { frame, close }. It rejects (an Error with `code`) when the session ends while
   * shown ("expired"), when the frame does not load ("frame_not_loaded") or when close() comes first ("closed").
   * A cashier:error from the fields page does not reject it: the customer mends the card and sends it again.
   */
  function fields(options) {
    let settle;
    const promise = new Promise((resolve, reject) => {
      settle = { resolve, reject };
    });
    let done = false;
    const fail = (code, message) => {
      if (done) return;
      done = true;
      const err = new Error(message);
      err.code = code;
      settle.reject(err);
    };
    const handle = frame(options, "fields", (event) => {
      if (done) return;
      if (event.type === "cashier:card_token") {
        done = true;
        settle.resolve({ card_token: event.card_token, brand: event.brand, masked: event.masked, expiry: event.expiry });
      } else if (event.type === "cashier:expired") fail("expired", "The card fields' session ended before a card was sent.");
      else if (event.type === "cashier:error" && event.code === NOT_LOADED) fail(NOT_LOADED, event.message);
      else if (event.type === "cashier:closed-by-page") fail("closed", "The card fields were closed before a card was sent.");
    });
    return Object.assign(promise, handle);
  }

  window.Cashier = Object.freeze({ open: openCashier, fields });
})();
