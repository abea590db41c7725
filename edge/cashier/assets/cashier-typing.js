// What the Cashier's forms do as the customer types; every page works without
// it. The card number is grouped as it is typed (in fours; 4-6-5 for American
// Express), the caret kept after the same digit, and the deposit's submit button
// names the amount it would pay ("Pay 25.00 USD"), read by the page's language
// as the server reads it (amount-input.ts) and written as the page writes
// amounts: the texts and formats come from the page (data-pay), never from here.

(() => {
  function grouping(digits) {
    return /^3[47]/.test(digits) ? [4, 6, 5] : [4, 4, 4, 4, 3];
  }

  function grouped(digits) {
    const out = [];
    let at = 0;
    for (const n of grouping(digits)) {
      if (at >= digits.length) break;
      out.push(digits.slice(at, at + n));
      at += n;
    }
    return out.join(" ");
  }

  function groupCardNumber(input) {
    // Backspace just after a space takes the digit before it, as the customer means.
    input.addEventListener("beforeinput", (e) => {
      const at = input.selectionStart;
      if (e.inputType !== "deleteContentBackward" || at !== input.selectionEnd || at < 2 || input.value[at - 1] !== " ") return;
      e.preventDefault();
      input.value = input.value.slice(0, at - 2) + input.value.slice(at);
      input.setSelectionRange(at - 2, at - 2);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    input.addEventListener("input", () => {
      const value = input.value;
      // Anything but digits, spaces and dashes is left as typed: the server names the mistake.
      if (/[^0-9\s-]/.test(value)) return;
      const caret = input.selectionStart ?? value.length;
      const before = value.slice(0, caret).replace(/\D/g, "").length;
      const digits = value.replace(/\D/g, "").slice(0, 19);
      const next = grouped(digits);
      if (next === value) return;
      input.value = next;
      let pos = 0;
      for (let seen = 0; pos < next.length && seen < before; pos++) if (/\d/.test(next[pos])) seen++;
      input.setSelectionRange(pos, pos);
    });
  }

  // The server's reading of an amount (edge/cashier/amount-input.ts), for the label only: minor units as a string, or null.
  function readAmount(text, p) {
    const s = text
      .trim()
      .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
      .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
      .replace(/\u066B/g, p.decimal === "," ? "," : ".")
      .replace(/\u066C/g, " ")
      .replace(/[\s\u00A0\u202F]+/g, " ");
    if (!/^[0-9][0-9 .,]*$/.test(s) || /[ ][.,]|[.,][ ]|[.,]{2}/.test(s)) return null;
    const points = s.split(".").length - 1;
    const commas = s.split(",").length - 1;
    const ungrouped = (int, seps) => {
      if (/^[0-9]+$/.test(int)) return int;
      const groups = int.split(new RegExp(`[${seps.replace(/[.\]\\-]/g, "\\$&")}]`));
      if (!/^[0-9]{1,3}$/.test(groups[0]) || groups.slice(1).some((g) => !/^[0-9]{3}$/.test(g))) return null;
      return groups.join("");
    };
    let decimal;
    if (points > 0 && commas > 0) decimal = s.lastIndexOf(".") > s.lastIndexOf(",") ? "." : ",";
    else if (points + commas === 1) {
      const sep = points === 1 ? "." : ",";
      const [int, fraction] = s.split(sep);
      const couldGroup = fraction.length === 3 && /^[0-9]{1,3}$/.test(int.split(" ").at(-1)) && ungrouped(int, " ") !== null;
      if (!couldGroup) decimal = sep;
      else if (sep === p.decimal || (sep !== p.group.trim() && sep !== p.group)) {
        if (p.exponent >= 3 && sep === p.decimal) decimal = sep;
        else return null;
      } else if (p.exponent >= 3) return null;
    }
    if (decimal !== undefined && s.split(decimal).length !== 2) return null;
    const [intPart, fraction = ""] = decimal === undefined ? [s] : s.split(decimal);
    const digits = ungrouped(intPart, ` ${decimal === "." ? "," : decimal === "," ? "." : ".,"}`);
    if (digits === null || digits.length > 12 || !/^[0-9]*$/.test(fraction) || fraction.length > p.exponent) return null;
    const minor = (BigInt(digits) * 10n ** BigInt(p.exponent) + BigInt(fraction.padEnd(p.exponent, "0") || "0")).toString();
    return /^0+$/.test(minor) ? null : minor;
  }

  function written(minor, p) {
    const padded = minor.padStart(p.exponent + 1, "0");
    const major = p.exponent > 0 ? `${padded.slice(0, -p.exponent)}.${padded.slice(-p.exponent)}` : padded;
    return p.amount.replace("%N%", new Intl.NumberFormat(p.locale, p.options).format(major));
  }

  function payLabel(form) {
    const holder = form.querySelector("[data-pay]");
    const button = holder?.querySelector("button");
    if (!button) return;
    const p = JSON.parse(holder.getAttribute("data-pay"));
    const amount = form.querySelector("input[name=amount]");
    const presets = [...form.querySelectorAll("input[name=preset]")];
    const update = () => {
      const typed = amount?.value.trim() ?? "";
      const preset = presets.find((r) => r.checked);
      const minor = typed ? readAmount(typed, p) : preset ? preset.value : null;
      button.textContent = minor ? p.label.replace("%A%", written(minor, p)) : p.plain;
    };
    amount?.addEventListener("input", update);
    for (const r of presets) r.addEventListener("change", update);
    // The other script empties the field when a preset is chosen (and unchecks presets as one types): after it.
    form.addEventListener("change", () => setTimeout(update));
    update();
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const form of document.querySelectorAll("form[data-card-form]")) {
      const number = form.querySelector("input[name=card_number]");
      if (number) groupCardNumber(number);
      payLabel(form);
    }
  });
})();
