// The challenge form: show the chosen game's options (only they are sent) and the fields of the
// chosen kind of opponent.
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

if (form) {
  form.elements.game.addEventListener("change", showGame);
  for (const radio of form.querySelectorAll("input[name=opponent]")) radio.addEventListener("change", showOpponent);
  showGame();
  showOpponent();
}
