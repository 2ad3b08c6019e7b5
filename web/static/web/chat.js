// Match chat: each chat section of the page (the viewer's room; for a seat of a finished match,
// also the spectators' room, read only) polls the API for new messages of its room, and the one
// with a form sends new ones. Every message is put on the page as text (textContent), never as
// HTML: other people's words are hostile. Each message of someone else gets the report form of
// the page's <template> (a plain form post). The fixed words come from the template's data-*.
const POLL_MS = 5000;
const reportTemplate = document.getElementById("chat-report-template");

function reportForm(message) {
  const part = reportTemplate.content.firstElementChild.cloneNode(true);
  part.querySelector("input[name=message]").value = String(message.id);
  return part;
}

function line(root, message) {
  const words = root.dataset;
  const item = document.createElement("li");
  item.className = message.hidden ? "chat-line hidden" : "chat-line";
  item.dataset.message = String(message.id);
  const who = document.createElement("a");
  who.href = words.playerUrl.replace("__name__", encodeURIComponent(message.author));
  who.textContent = message.author;
  const when = document.createElement("span");
  when.className = "muted";
  when.textContent = ` ${message.ply ? words.afterMove.replace("__ply__", String(message.ply)) : words.beforeFirst}: `;
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = message.hidden ? words.hiddenText : message.text;
  item.append(who, when, text);
  if (reportTemplate && message.author !== words.me && !message.hidden) item.append(reportForm(message));
  return item;
}

function follow(root) {
  const log = root.querySelector(".chat-log");
  const form = root.querySelector("form.chat-form");
  const { chatUrl: url, room } = root.dataset;
  let after = 0;

  async function poll() {
    try {
      const response = await fetch(`${url}?room=${room}&after=${after}`, {
        credentials: "same-origin", headers: { Accept: "application/json" },
      });
      if (!response.ok) return;
      for (const message of await response.json()) {
        log.append(line(root, message));
        after = Math.max(after, message.id);
      }
    } catch (error) {
      // The next poll tries again.
    }
  }

  async function send(event) {
    event.preventDefault();
    const input = form.querySelector("input[name=text]");
    const error = form.querySelector(".error");
    const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ room, text: input.value }),
    });
    const answer = await response.json();
    error.textContent = response.ok ? "" : answer.message;
    if (response.ok) input.value = "";
    await poll();
  }

  if (form) form.addEventListener("submit", send);
  poll();
  setInterval(poll, POLL_MS);
}

document.querySelectorAll("section.chat[data-chat-url]").forEach(follow);
