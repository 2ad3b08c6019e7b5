// The words the scripts write, in the page's language: base.html's JSON element "page-strings"
// (web/context.py). t("key", {name: value}) fills %(name)s.
const element = document.getElementById("page-strings");
const STRINGS = element ? JSON.parse(element.textContent) : {};

export function t(key, values = {}) {
  const text = STRINGS[key] ?? key;
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}
