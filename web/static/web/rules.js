// A game that shares its family's rules document opens at its own section (unless the address
// already names a place in the document).
const article = document.getElementById("rules");
const section = article?.dataset.section;
if (section && !location.hash) {
  document.getElementById(section)?.scrollIntoView();
  history.replaceState(null, "", `#${section}`);
}
