// The Backoffice console's one script. It only enhances: every page that a
// form can serve works without it. It draws the dashboard's charts
// (chart.js, served by the console), runs passkey ceremonies
// (@simplewebauthn/browser, served by the console), ticks "select all" of a
// bulk form, moves the focus to an error summary, and moves between a list's
// rows with j/k or the arrow keys (Enter opens the row's link as any link).

(() => {
  document.documentElement.classList.add("js");

  /** The JSON of a <script type="application/json"> data block. */
  function data(id) {
    const el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : undefined;
  }

  function passkeys() {
    const section = document.querySelector("[data-passkey]");
    const lib = window.SimpleWebAuthnBrowser;
    if (!section || !lib?.browserSupportsWebAuthn()) return;
    section.hidden = false;
    const form = document.getElementById("passkey-form");
    const button = document.getElementById("passkey");
    const error = document.getElementById("passkey-error");
    button.addEventListener("click", async () => {
      error.hidden = true;
      button.disabled = true;
      try {
        const optionsJSON = data("passkey-options");
        const result = section.dataset.passkey === "register" ? await lib.startRegistration({ optionsJSON }) : await lib.startAuthentication({ optionsJSON });
        form.elements.response.value = JSON.stringify(result);
        form.submit();
      } catch {
        // Cancelled, timed out or refused by the authenticator: say so, and let the operator retry.
        error.hidden = false;
        button.disabled = false;
        button.focus();
      }
    });
  }

  function charts() {
    if (!window.Chart) return;
    for (const canvas of document.querySelectorAll("canvas[data-chart]")) {
      const config = data(canvas.dataset.chart);
      if (!config) continue;
      config.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, config.options || {});
      canvas.chart = new window.Chart(canvas, config);
    }
  }

  function selectAll() {
    for (const box of document.querySelectorAll("input[data-select-all]")) {
      const form = box.form;
      box.hidden = false;
      box.closest("label")?.removeAttribute("hidden");
      box.addEventListener("change", () => {
        for (const item of form.querySelectorAll(`input[name="${box.dataset.selectAll}"]`)) item.checked = box.checked;
      });
    }
  }

  /** j or ArrowDown: the next row's link; k or ArrowUp: the previous one; from the list's box, the first. */
  function rowNavigation() {
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const down = event.key === "j" || event.key === "ArrowDown";
      const up = event.key === "k" || event.key === "ArrowUp";
      if (!down && !up) return;
      const here = document.activeElement;
      if (!here || here.matches("input, select, textarea, [contenteditable]")) return;
      const table = here.closest("table[data-row-nav]") || here.querySelector?.("table[data-row-nav]");
      if (!table) return;
      const links = [...table.querySelectorAll("tbody tr")].map((row) => row.querySelector("a[href]")).filter(Boolean);
      if (links.length === 0) return;
      const at = links.indexOf(here);
      const next = at < 0 ? (down ? 0 : -1) : at + (down ? 1 : -1);
      if (next < 0 || next >= links.length) return;
      event.preventDefault();
      links[next].focus();
      links[next].closest("tr").scrollIntoView({ block: "nearest" });
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const summary = document.getElementById("error-summary");
    if (summary) summary.focus();
    passkeys();
    charts();
    selectAll();
    rowNavigation();
  });
})();
