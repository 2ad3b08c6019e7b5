// Live updates for the pages: an EventSource on a Server-Sent Events stream (served by the ASGI
// service; the browser reconnects on its own and resumes with Last-Event-ID), and a long poll
// when no stream can be had (no EventSource, the path not served here, too many streams open).
// Also the notices of what happened elsewhere: a challenge received, a match started, your turn.
import { t } from "./strings.js";

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// Open `url` as an EventSource and hand each event of a kind in `handlers` its parsed data.
// `fallback()` runs (once) when the stream is refused or cannot be had.
export function followStream(url, handlers, fallback) {
  if (!("EventSource" in window)) {
    fallback();
    return null;
  }
  const source = new EventSource(url);
  let opened = false;
  let failures = 0;
  let fellBack = false;
  const giveUp = () => {
    source.close();
    if (!fellBack) {
      fellBack = true;
      fallback();
    }
  };
  source.addEventListener("open", () => {
    opened = true;
    failures = 0;
  });
  source.addEventListener("error", () => {
    // CLOSED: the server answered with an error (404, 429...), the browser will not retry.
    if (source.readyState === EventSource.CLOSED) giveUp();
    else if (!opened && ++failures >= 3) giveUp();
    else opened = false;
  });
  for (const [kind, handle] of Object.entries(handlers)) {
    source.addEventListener(kind, (event) => handle(JSON.parse(event.data), event));
  }
  return source;
}

// Long-poll `GET url` for ever: `answer(json)` for each answer, a pause after a failure (longer
// when the server says so).
export async function longPoll(nextUrl, answer) {
  for (;;) {
    try {
      const response = await fetch(nextUrl(), {
        credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" },
      });
      if (!response.ok) {
        await sleep(1000 * Number(response.headers.get("Retry-After") || 5));
        continue;
      }
      await answer(await response.json());
    } catch (error) {
      await sleep(5000);
    }
  }
}

// The user's events elsewhere, told in a polite live region at the top of the page.
const ELSEWHERE = {
  challenge_received: (p) => [t("challenge_received", {from: p.from}), "/"],
  match_started: (p) => [t("match_started", {match: p.match}), `/matches/${p.match}/`],
  your_turn: (p) => [t("your_turn", {match: p.match}), `/matches/${p.match}/`],
};
export const NOTICE_KINDS = Object.keys(ELSEWHERE);

function noticeBox() {
  let box = document.getElementById("live-notices");
  if (!box) {
    box = document.createElement("div");
    box.id = "live-notices";
    box.className = "messages";
    box.setAttribute("role", "status");
    box.setAttribute("aria-live", "polite");
    document.getElementById("main").prepend(box);
  }
  return box;
}

export function notice(event) {
  const told = ELSEWHERE[event.kind];
  if (!told) return;
  const [text, href] = told(event.payload);
  const line = document.createElement("p");
  line.className = "message info";
  const link = document.createElement("a");
  link.href = href;
  link.textContent = text;
  line.append(link);
  const box = noticeBox();
  box.append(line);
  while (box.children.length > 5) box.firstElementChild.remove();
}
