// The Cashier's enhancements; every page works without them. The card's
// brand as it is typed, a hint when the number fails the Luhn check, only
// the card fields that apply (a saved card or a new one), the amount field
// and the preset choices kept apart, card fields a browser put back cleared,
// and a pending result followed until it is final. Texts come from the page (the server's catalogues), never from here.

(() => {
  const BRANDS = [
    ["American Express", /^3[47]/],
    ["Visa", /^4/],
    ["Mastercard", /^(5[1-5]|2(2[2-9][1-9]|2[3-9]|[3-6]|7[01]|720))/],
    ["Discover", /^(6011|65|64[4-9])/],
    ["JCB", /^35(2[89]|[3-8])/],
    ["Diners Club", /^3(0[0-5]|[689])/],
    ["UnionPay", /^62/],
    ["Maestro", /^(5018|5020|5038|6304|6759|676[1-3])/],
  ];

  function luhn(digits) {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return sum % 10 === 0;
  }

  function cardNumber(form) {
    const input = form.querySelector("#card_number");
    const out = form.querySelector("#card_number-brand");
    const hint = form.querySelector("#card_number-luhn");
    if (!input || !out || !hint) return;
    const described = input.getAttribute("aria-describedby") || "";
    const update = () => {
      const digits = input.value.replace(/[\s-]/g, "");
      const brand = BRANDS.find(([, re]) => re.test(digits));
      out.textContent = brand && digits.length >= 2 ? out.dataset.template.replace("%BRAND%", brand[0]) : "";
      const wrong = /^[0-9]{12,19}$/.test(digits) ? !luhn(digits) : digits.length >= 19;
      hint.hidden = !wrong;
      input.setAttribute("aria-describedby", `${described} ${wrong ? "card_number-luhn" : ""}`.trim());
    };
    input.addEventListener("input", update);
    update();
  }

  function sources(form) {
    const group = form.querySelector("#new-card[data-source-new]");
    if (!group) return;
    const saved = form.querySelector("#saved-group");
    const radios = [...form.querySelectorAll("input[name=source], input[name=destination]")];
    const update = () => {
      const chosen = radios.find((r) => r.checked);
      const isNew = !chosen || chosen.value === group.dataset.sourceNew;
      group.hidden = !isNew;
      // Fields out of sight are not sent either: a number typed before choosing a saved card is not a second card.
      group.disabled = !isNew;
      if (saved) saved.hidden = isNew;
    };
    for (const r of radios) r.addEventListener("change", update);
    update();
  }

  function amounts(form) {
    const amount = form.querySelector("#amount");
    const presets = [...form.querySelectorAll("input[name=preset]")];
    if (!amount || presets.length === 0) return;
    for (const p of presets)
      p.addEventListener("change", () => {
        if (p.checked) amount.value = "";
      });
    amount.addEventListener("input", () => {
      if (amount.value.trim()) for (const p of presets) p.checked = false;
    });
  }

  // A browser that brings the page back (Back after paying, a reload) puts
  // what was typed into the fields again, a full card number in clear among
  // it; it does so after DOMContentLoaded and before pageshow. The server never
  // writes a card field back, so on such a return any value there is the
  // browser's: cleared. A first load is left alone: the customer may already
  // be typing while this script arrives.
  function forget(form) {
    const [nav] = performance.getEntriesByType("navigation");
    const returned = nav && (nav.type === "back_forward" || nav.type === "reload");
    addEventListener("pageshow", (e) => {
      if (!e.persisted && !returned) return;
      for (const name of ["card_number", "card_exp", "cvv", "saved_card_cvv"]) {
        const input = form.querySelector(`input[name=${name}]`);
        if (input?.value) {
          input.value = "";
          input.dispatchEvent(new Event("input"));
        }
      }
    });
  }

  // A nicety only: the server makes one order of a form however often it is
  // sent (its submission key). A second click while the first is on its way
  // is ignored and the button says it is busy; a page restored from the
  // back-forward cache may be sent again once its card is typed again (the
  // server answers the same order: a refused send keeps the form's key).
  function once(form) {
    let sent = false;
    const buttons = [...form.querySelectorAll("button[type=submit]")];
    form.addEventListener("submit", (e) => {
      if (sent) return e.preventDefault();
      if (e.defaultPrevented) return;
      sent = true;
      for (const b of buttons) b.setAttribute("aria-disabled", "true");
    });
    addEventListener("pageshow", (e) => {
      if (!e.persisted) return;
      sent = false;
      for (const b of buttons) b.removeAttribute("aria-disabled");
    });
  }

  function follow() {
    const el = document.querySelector("[data-follow]");
    if (!el) return;
    const url = el.getAttribute("data-follow");
    const current = el.getAttribute("data-status");
    const tick = async () => {
      try {
        const res = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store", credentials: "omit" });
        if (res.ok) {
          const { transaction_status } = await res.json();
          if (transaction_status && transaction_status !== current) return location.reload();
        }
      } catch {
        // Offline for a moment: try again.
      }
      setTimeout(tick, 2000);
    };
    setTimeout(tick, 2000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const form of document.querySelectorAll("form[data-card-form]")) {
      cardNumber(form);
      sources(form);
      amounts(form);
      forget(form);
      once(form);
    }
    follow();
  });
})();
