// The Backoffice console's one script. It only enhances: every page that a
// form can serve works without it. It draws the dashboard's charts
// (chart.js, served by the console), runs passkey ceremonies
// (@simplewebauthn/browser, served by the console), ticks "select all" of a
// bulk form, and moves the focus to an error summary.

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

  document.addEventListener("DOMContentLoaded", () => {
    const summary = document.getElementById("error-summary");
    if (summary) summary.focus();
    passkeys();
    charts();
    selectAll();
  });
})();
