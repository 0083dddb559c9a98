// The companion page: draws the state pushed by the server (Server-Sent Events) and
// sends the controls' requests (PIN session + anti-forgery token).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const token = document.querySelector('meta[name="csrf-token"]').content;
  let state = JSON.parse($("initial-state").textContent);
  let pinned = null; // a legal play clicked in the list stays highlighted
  let pendingFrom = null; // a point clicked for a play by hand

  const REASONS = {
    cocked: "a die is cocked",
    wrong_section: "a die is outside the roller's right-hand section",
    on_checker: "a die rests on a checker",
    off_board: "a die fell off the board",
    dice_count: "not exactly two dice on the board",
    unreadable: "the dice cannot be read",
    tie: "the opening dice are equal",
    early: "rolled before the opponent picked up his dice",
    thrown_again: "thrown again before a play: the roll was void (a die cocked that the camera read flat?)",
  };

  function text(el, value) { el.textContent = value; }
  function cap(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }
  function name(color) { return (state.names && state.names[color]) || cap(color); }

  function renderScore() {
    const m = state.match;
    const len = m.money ? "money" : `match to ${m.length}`;
    const flags = m.crawford ? ' <span class="badge crawford">Crawford</span>' : m.post_crawford ? ' <span class="badge">post-Crawford</span>' : "";
    const turn = m.acting ? `${name(m.acting)} to ${m.phase === "doubled" ? "answer the double" : m.phase === "move" ? "play" : m.phase === "illegal" ? "accept or reject" : "roll"}` : m.phase === "match_over" ? `${name(m.winner)} wins the match` : "opening roll";
    $("score").innerHTML = "";
    const line = document.createElement("div");
    line.className = "score-line";
    line.innerHTML = `<span class="name white-name"></span> <b id="score-white">${m.score.white}</b> – <b id="score-black">${m.score.black}</b> <span class="name black-name"></span> <small>(${len}, game ${m.game})</small>${flags}`;
    line.querySelector(".white-name").textContent = name("white");
    line.querySelector(".black-name").textContent = name("black");
    $("score").appendChild(line);
    const t = document.createElement("div");
    t.id = "turn";
    t.textContent = turn;
    $("score").appendChild(t);
  }

  function renderCube() {
    const c = state.match.cube;
    const owner = c.owner ? `${name(c.owner)} owns it` : "centred";
    const offer = c.offered ? ` — ${name(state.match.acting === "white" ? "black" : "white")} doubles to ${c.value * 2}` : "";
    $("cube").innerHTML = `Cube <b id="cube-value">${c.value}</b> <span id="cube-owner"></span>`;
    $("cube-owner").textContent = owner + offer;
    $("cube").classList.toggle("offered", c.offered);
    const unit = $("unit");
    unit.hidden = !state.unit;
    if (state.unit) unit.textContent = `unit shows [${state.unit.display}]`;
  }

  function renderHealth() {
    const h = state.health;
    const parts = [];
    parts.push(h.source === "none" ? "no camera" : `camera ${h.fps.toFixed(0)} fps`);
    if (h.camera_error) parts.push(`camera error: ${h.camera_error}`);
    if (h.drift) parts.push(h.drift.moved ? "⚠ the board or camera moved: calibrate again" : h.drift.moved === null ? "calibration not checked" : "calibration OK");
    if (h.followed) parts.push(`the board or camera moved (${h.followed}): the calibration followed it`);
    parts.push(h.cube === "none" ? "no cube unit" : `cube unit ${h.cube}`);
    parts.push(h.last_save ? `saved ${h.last_save}` : "nothing saved yet");
    $("health").textContent = parts.join(" · ");
    $("health").classList.toggle("warn", !!(h.camera_error || (h.drift && h.drift.moved)));
    $("cube-missing").hidden = !state.cube_missing;
  }

  function renderVerdict() {
    const v = $("verdict");
    const call = state.call, m = state.match;
    v.className = "";
    if (call && call.type === "reroll") {
      v.className = "reroll";
      const why = (call.reasons || []).map((r) => REASONS[r] || r).join("; ");
      v.innerHTML = `<div class="big">REROLL</div><div class="why"></div>`;
      v.querySelector(".why").textContent = (call.player ? name(call.player) + ": " : "Opening roll: ") + why;
    } else if (call && call.type === "illegal_play") {
      v.className = "illegal";
      v.innerHTML = `<div class="big">ILLEGAL PLAY</div><div class="why"></div>`;
      v.querySelector(".why").textContent = `${name(call.player)}'s play is not legal for the roll: ${name(call.player === "white" ? "black" : "white")} may accept it (or roll) or require a legal play.`;
    } else if (m.dice && m.phase === "move") {
      v.className = "roll";
      v.innerHTML = `<div class="big"></div><div class="why"></div>`;
      v.querySelector(".big").textContent = `${m.dice[0]}-${m.dice[1]}`;
      v.querySelector(".why").textContent = `${name(m.turn)} to play`;
    } else {
      v.className = "waiting";
      v.innerHTML = `<div class="why"></div>`;
      v.querySelector(".why").textContent = m.phase === "match_over" ? "The match is over." : m.phase === "opening" ? "Opening roll: one die each, into your right-hand section." : `Waiting for ${name(m.acting)}.`;
    }
    const seen = (state.seen.dice || []).map((d) => d.value || "?").join(" ");
    if (seen) {
      const s = document.createElement("div");
      s.className = "seen";
      s.textContent = `camera sees: ${seen}`;
      v.appendChild(s);
    }
    const fix = $("fix");
    fix.hidden = !state.fix;
    if (state.fix) fix.textContent = `Check by hand: ${state.fix.why}${state.fix.player ? " (" + name(state.fix.player) + ")" : ""}. Fix it on the board, or enter it below.`;
    const glance = $("glance"), g = state.glance;
    glance.hidden = !g;
    if (g) glance.textContent = g.type === "correction" ? "The camera re-synchronised the board (a correction): glance at it and fix it below if it is wrong." : `Glance at ${name(g.player)}'s play ${g.play || "(no move)"}: the camera was not sure of it. Undo and enter it below if it is wrong.`;
  }

  function renderPlays() {
    const list = $("plays");
    list.innerHTML = "";
    $("plays-box").hidden = !!state.plays_hidden;
    text($("plays-count"), state.plays.length ? `(${state.plays.length}${state.plays.length >= 60 ? "+" : ""})` : "");
    for (const p of state.plays) {
      const li = document.createElement("li");
      li.textContent = p.play;
      li.tabIndex = 0;
      li.addEventListener("mouseenter", () => BOARD.highlightPlay($("board"), p.steps, state.match.turn));
      li.addEventListener("focus", () => BOARD.highlightPlay($("board"), p.steps, state.match.turn));
      li.addEventListener("mouseleave", () => BOARD.highlightPlay($("board"), pinned ? pinned.steps : [], state.match.turn));
      li.addEventListener("click", () => { pinned = p; $("play-text").value = p.play; });
      list.appendChild(li);
    }
  }

  function renderHistory() {
    const list = $("history");
    list.innerHTML = "";
    for (const h of state.history.slice(-16)) {
      const li = document.createElement("li");
      li.className = h.player;
      li.textContent = `${name(h.player)} ${h.text}`;
      list.appendChild(li);
    }
    const log = $("log");
    log.innerHTML = "";
    for (const e of state.log.slice().reverse()) {
      const li = document.createElement("li");
      const what = e.type === "reroll" ? `reroll (${(e.reasons || []).join(", ")})` : e.type === "roll" || e.type === "opening_roll" ? `${e.type.replace("_", " ")} ${(e.dice || []).join("-")}` : e.type === "play" ? `play ${e.play}` : e.type === "ignored" ? `ignored: ${e.why}` : e.type === "needs_fix" ? `needs a fix: ${e.why}` : e.type === "correction" ? (e.dice ? `dice corrected to ${e.dice.join("-")}: ${e.note || "by hand"}` : `board corrected: ${e.note || "by hand"}`) : e.type.replace(/_/g, " ");
      li.textContent = `${e.t !== undefined ? e.t.toFixed(1) + "s " : ""}${e.player ? name(e.player) + ": " : ""}${what}${e.by_hand ? " (by hand)" : ""}${e.inferred ? " (inferred)" : ""}${e.alternatives ? ` (or ${e.alternatives.map((d) => d.join("-")).join(", ")}: check it)` : ""}${e.fit && e.fit.check ? " (check it: thin margin)" : ""}`;
      log.appendChild(li);
    }
  }

  function renderControls() {
    $("login").hidden = state.control;
    $("controls").hidden = !state.control;
    const allowed = new Set(state.match.allowed);
    document.querySelectorAll("#cube-controls button").forEach((b) => {
      b.disabled = !allowed.has(b.dataset.action);
    });
    $("roll-button").disabled = !(allowed.has("roll") || allowed.has("opening"));
    $("roll-button").textContent = allowed.has("opening") ? "Record opening roll (white, black)" : "Record roll";
  }

  function renderPips() {
    const p = state.match.pips;
    $("pips").textContent = `Pips: ${name("white")} ${p.white} · ${name("black")} ${p.black}`;
  }

  function render() {
    BOARD.drawBoard($("board"), state.match, { onPoint });
    if (pinned && !state.plays.some((p) => p.play === pinned.play)) pinned = null;
    if (pinned) BOARD.highlightPlay($("board"), pinned.steps, state.match.turn);
    renderScore();
    renderCube();
    renderHealth();
    renderVerdict();
    renderPlays();
    renderHistory();
    renderControls();
    renderPips();
    document.body.dataset.version = state.version;
    document.body.dataset.phase = state.match.phase;
    if (!window.bgFirstRender) window.bgFirstRender = performance.now();
  }

  // A play by hand by clicking: source point, then destination (in the mover's numbering).
  function onPoint(n) {
    if (!state.control) return;
    const mover = state.match.turn;
    const own = mover === "white" ? n : 25 - n;
    const input = $("play-text");
    if (pendingFrom === null) {
      pendingFrom = own;
      input.value = (input.value ? input.value + " " : "") + own + "/";
    } else {
      input.value += own;
      pendingFrom = null;
    }
  }

  function say(msg, bad) {
    const m = $("message");
    m.textContent = msg;
    m.className = bad ? "bad" : "good";
  }

  async function post(url, body) {
    try {
      const r = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
        body: JSON.stringify(body || {}),
        credentials: "same-origin",
      });
      const reply = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
      if (!r.ok) { say(reply.error || `HTTP ${r.status}`, true); return null; }
      return reply;
    } catch (e) {
      say(`no answer from the companion: ${e}`, true);
      return null;
    }
  }

  async function refresh() {
    const r = await fetch("api/state", { credentials: "same-origin" });
    if (r.ok) { state = await r.json(); render(); }
  }

  $("login-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const reply = await post("api/login", { pin: $("pin").value });
    if (reply) { say("You have the controls."); $("pin").value = ""; connect(); await refresh(); }
  });
  $("logout").addEventListener("click", async () => {
    if (await post("api/logout")) { say("Watching only."); connect(); await refresh(); }
  });
  document.querySelectorAll("#cube-controls button").forEach((b) => {
    b.addEventListener("click", async () => {
      const body = { type: b.dataset.action };
      if (b.dataset.action === "resign") body.level = Number($("resign-level").value);
      if (await post("api/action", body)) say(`${b.textContent}: recorded.`);
    });
  });
  for (const id of ["die1", "die2"]) {
    for (let v = 1; v <= 6; v++) {
      const o = document.createElement("option");
      o.value = v; o.textContent = v;
      $(id).appendChild(o);
    }
  }
  $("roll-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const a = Number($("die1").value), b = Number($("die2").value);
    const body = state.match.allowed.includes("opening") ? { type: "opening", white: a, black: b } : { type: "roll", dice: [a, b] };
    if (await post("api/action", body)) say("Roll recorded.");
  });
  $("play-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (await post("api/action", { type: "play", play: $("play-text").value })) {
      say("Play recorded."); $("play-text").value = ""; pendingFrom = null; pinned = null;
    }
  });
  $("play-clear").addEventListener("click", () => { $("play-text").value = ""; pendingFrom = null; pinned = null; });
  $("undo").addEventListener("click", async () => { if (await post("api/undo")) say("Undone."); });
  $("new-match-open").addEventListener("click", () => { $("new-match").hidden = false; });
  $("new-match-cancel").addEventListener("click", () => { $("new-match").hidden = true; });
  $("new-match").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const length = Number($("nm-length").value);
    const money = length === 0;
    const body = {
      length, white: $("nm-white").value, black: $("nm-black").value,
      crawford: $("nm-crawford").checked, jacoby: money && $("nm-jacoby").checked,
      beavers: money && $("nm-beavers").checked, tournament: $("nm-tournament").checked,
      call_illegal: $("nm-call-illegal").checked,
      dice_on_checker: $("nm-dice-on-checker").checked ? "allowed" : "reroll",
    };
    if (await post("api/new-match", body)) { say("New match started."); $("new-match").hidden = true; }
  });

  // Live updates: the whole state, pushed on every change. A stream refused (too many
  // watchers: 503) is not retried by the browser itself: try again in half a minute.
  let source = null;
  let retry = null;
  function connect() {
    if (source) source.close();
    clearTimeout(retry);
    source = new EventSource("api/stream");
    source.addEventListener("state", (ev) => { state = JSON.parse(ev.data); render(); });
    source.onopen = () => document.body.classList.remove("offline");
    source.onerror = () => {
      document.body.classList.add("offline");
      if (source.readyState === EventSource.CLOSED) {
        retry = setTimeout(() => { refresh(); connect(); }, 25000 + Math.random() * 10000);
      }
    };
  }

  // The camera view: the newest frame with what was read drawn on it.
  let cameraBusy = false;
  function camera() {
    if (!state.camera || cameraBusy || document.hidden) return;
    cameraBusy = true;
    const img = $("camera");
    img.onload = img.onerror = () => { cameraBusy = false; };
    img.src = `camera.jpg?width=800&frame=${state.frame}`;
  }

  render();
  connect();
  setInterval(camera, 500);
})();
