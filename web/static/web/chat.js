// Match chat: polls the API for new messages of this page's room and sends new ones. Every
// message is put on the page as text (textContent), never as HTML: other people's words are hostile.
const root = document.getElementById("chat");
const log = document.getElementById("chat-log");
const form = document.getElementById("chat-form");
const url = root.dataset.chatUrl;
const room = root.dataset.room;
let after = 0;
const POLL_MS = 5000;

function line(message) {
  const item = document.createElement("li");
  item.className = message.hidden ? "chat-line hidden" : "chat-line";
  const who = document.createElement("strong");
  who.textContent = message.author;
  const when = document.createElement("span");
  when.className = "muted";
  when.textContent = message.ply ? ` after move ${message.ply}: ` : " before the first move: ";
  const text = document.createElement("span");
  text.textContent = message.hidden ? "(hidden by staff)" : message.text;
  item.append(who, when, text);
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
