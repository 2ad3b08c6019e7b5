// The challenge form: show the chosen game's options (only they are sent), the fields of the
// chosen kind of opponent, and a variant's settings in the option fields when it is chosen.
const form = document.getElementById("challenge-form");

function showGame() {
  const slug = form.elements.game.value;
  for (const set of form.querySelectorAll("fieldset.game-options")) {
    const chosen = set.dataset.game === slug;
    set.hidden = !chosen;
    set.disabled = !chosen;
  }
}

function showOpponent() {
  const kind = form.querySelector("input[name=opponent]:checked")?.value || "engine";
  for (const field of form.querySelectorAll("[data-opponent]")) field.hidden = field.dataset.opponent !== kind;
}

const asText = (value) => (value === true ? "true" : value === false ? "false" : value === null ? "" : String(value));

function showVariant(select) {
  const presets = JSON.parse(document.getElementById(select.dataset.presets).textContent);
  const preset = presets[select.value] || {};
  for (const field of select.closest("fieldset").querySelectorAll("[data-option]")) {
    const name = field.dataset.option;
    field.value = name in preset ? asText(preset[name]) : field.dataset.default;
  }
}

if (form) {
  for (const select of form.querySelectorAll("select[data-presets]")) {
    select.addEventListener("change", () => showVariant(select));
  }
  form.elements.game.addEventListener("change", showGame);
  for (const radio of form.querySelectorAll("input[name=opponent]")) radio.addEventListener("change", showOpponent);
  showGame();
  showOpponent();
}
