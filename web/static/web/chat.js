// Match chat: polls the API for new messages of this page's room and sends new ones. Every
// message is put on the page as text (textContent), never as HTML: other people's words are hostile.
// Each message of someone else gets the report form of the page's <template> (a plain form post).
const root = document.getElementById("chat");
const log = document.getElementById("chat-log");
const form = document.getElementById("chat-form");
const url = root.dataset.chatUrl;
const room = root.dataset.room;
const me = root.dataset.me;
const reportTemplate = document.getElementById("chat-report-template");
let after = 0;
const POLL_MS = 5000;

function reportForm(message) {
  const part = reportTemplate.content.firstElementChild.cloneNode(true);
  part.querySelector("input[name=message]").value = String(message.id);
  return part;
}

function line(message) {
  const item = document.createElement("li");
  item.className = message.hidden ? "chat-line hidden" : "chat-line";
  item.dataset.message = String(message.id);
  const who = document.createElement("a");
  who.href = root.dataset.playerUrl.replace("__name__", encodeURIComponent(message.author));
  who.textContent = message.author;
  const when = document.createElement("span");
  when.className = "muted";
  when.textContent = message.ply ? ` ${root.dataset.afterMove} ${message.ply}: ` : ` ${root.dataset.beforeFirst}: `;
  const text = document.createElement("span");
  text.className = "chat-text";
  text.textContent = message.hidden ? root.dataset.hiddenText : message.text;
  item.append(who, when, text);
  if (reportTemplate && message.author !== me && !message.hidden) item.append(reportForm(message));
  return item;
}

async function poll() {
  try {
    const response = await fetch(`${url}?room=${room}&after=${after}`, {
      credentials: "same-origin", headers: { Accept: "application/json" },
    });
    if (!response.ok) return;
    for (const message of await response.json()) {
      log.append(line(message));
      after = Math.max(after, message.id);
    }
  } catch (error) {
    // The next poll tries again.
  }
}

async function send(event) {
  event.preventDefault();
  const input = form.querySelector("#chat-text");
  const error = form.querySelector("#chat-error");
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
