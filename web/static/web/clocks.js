// Countdowns, each second: every <time class="countdown" datetime="..."> shows the time left until
// then; every running seat clock (<span class="seat-clock" data-running data-remaining="seconds">)
// counts down from the seconds the server gave when the element arrived (no clock skew), and
// turns "low" under its data-low seconds.
const arrived = new WeakMap();

function clockText(seconds) {
  if (seconds <= 0) return "time is up";
  const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600);
  const m = Math.floor(s % 3600 / 60), sec = s % 60, pad = (n) => String(n).padStart(2, "0");
  return (d ? `${d}d ` : "") + `${pad(h)}:${pad(m)}:${pad(sec)}`;
}

function tick() {
  const now = Date.now();
  for (const el of document.querySelectorAll("time.countdown[datetime]")) {
    const ms = Date.parse(el.getAttribute("datetime")) - now;
    el.textContent = ms <= 0 ? "time is up" : `${clockText(ms / 1000)} left`;
  }
  const since = performance.now();
  for (const el of document.querySelectorAll(".seat-clock[data-running]")) {
    if (!arrived.has(el)) arrived.set(el, since);
    const left = Number(el.dataset.remaining) - (since - arrived.get(el)) / 1000;
    el.querySelector(".clock-text").textContent = clockText(left);
    // Low: under a quarter of a turn's time (at most a day), so a 1-day clock is not red at once.
    el.classList.toggle("low", left < Number(el.dataset.low || 86400));
  }
}

tick();
setInterval(tick, 1000);
