// Countdown clocks: every <time class="countdown" datetime="..."> shows the time left, each second.
function left(ms) {
  if (ms <= 0) return "time is up";
  const s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
  const m = Math.floor(s % 3600 / 60), sec = s % 60, pad = (n) => String(n).padStart(2, "0");
  return (d ? `${d}d ` : "") + `${pad(h)}:${pad(m)}:${pad(sec)} left`;
}

function tick() {
  const now = Date.now();
  for (const el of document.querySelectorAll("time.countdown[datetime]")) {
    el.textContent = left(Date.parse(el.getAttribute("datetime")) - now);
  }
}

tick();
setInterval(tick, 1000);
