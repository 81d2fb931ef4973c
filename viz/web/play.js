// The live client of antipolix serve: plays one seat (or watches a game) over the server's
// WebSocket protocol (docs/protocol.md), drawn by the replay page's renderer (replay.js) to which
// it appends each turn as it is played. Plain script, no build step; three.js is vendored.
// window.apxPlay is the page's scripting interface, used by its tests.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const CONFIG = JSON.parse($("apx-config").textContent);
  const PROTOCOL = 1;
  const TYPES = ["army", "hovercraft", "fortress"];
  const TRAITS = ["none", "invisible", "teleporter", "chief"];
  const TYPE_CODE = { army: 0, hovercraft: 1, fortress: 2 };
  const TRAIT_CODE = { none: 0, invisible: 1, teleporter: 2, chief: 3 };
  const UNKNOWN = -1;
  const PICK_PX = 22; // a click this close to a piece or a highlighted cell picks it
  const GREEN = "#1B9E4B";
  const RED = "#D7191C";

  // the page's address: /play/GAME#TOKEN (a seat) or /watch/GAME#TOKEN (spectators); the token
  // leaves the address bar at once and waits in this tab's sessionStorage (for reloads)
  const GAME = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const KEY = "antipolix:" + location.pathname;
  if (location.hash.length > 1) {
    sessionStorage.setItem(KEY, decodeURIComponent(location.hash.slice(1)));
    history.replaceState(null, "", location.pathname);
  }
  const TOKEN = sessionStorage.getItem(KEY) || "";

  const G = {
    welcome: null, seat: null, role: null, rules: null, shape: null, players: 0,
    phase: "connecting", started: false, ws: null, retry: 0,
    obs: null, turn: null, submitted: false, out: false, result: null,
    shown: -1, // the last turn appended to the renderer (turns played)
    before: new Map(), // pieces of the last appended turn: id -> piece (from the frames)
    seen: new Map(), // per turn appended: id -> piece (for the tests)
    selected: [], targets: { move: new Map(), attack: new Map() }, staged: null,
    clocks: null, clocksAt: 0, log: [], inbox: [], errors: [],
    army: { counts: {}, chief: "army", where: "random", cells: [] },
  };

  // -- the connection --------------------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + "/ws");
    G.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, game: GAME, token: TOKEN }));
    ws.onmessage = (ev) => {
      let frame;
      try { frame = JSON.parse(ev.data); } catch (e) { return; }
      try { handle(frame); } catch (e) { console.error(e); status("this page failed: " + e.message, true); }
    };
    ws.onclose = () => {
      if (G.ws !== ws) return;
      G.ws = null;
      if (G.result || G.refused) return;
      G.retry = Math.min(G.retry + 1, 5);
      status("connection lost: reconnecting…", true);
      setTimeout(connect, 1000 * G.retry);
    };
  }

  function send(frame) {
    if (!G.ws || G.ws.readyState !== 1) { status("not connected: wait a moment", true); return false; }
    G.ws.send(JSON.stringify(frame));
    return true;
  }

  function status(text, error) {
    const box = $("status");
    box.textContent = text;
    box.classList.toggle("error", !!error);
  }

  function handle(f) {
    switch (f.type) {
      case "welcome": return welcome(f);
      case "army_ok": return armyPlaced(f);
      case "observation": return observation(f);
      case "view": return view(f);
      case "received": return received(f);
      case "clock": return setClocks(f.clocks);
      case "queued": return queued(f);
      case "out": return out(f);
      case "result": return result(f);
      case "error": return error(f);
      default: return undefined;
    }
  }

  function error(f) {
    G.errors.push(f.code + ": " + f.message);
    if (f.code === "token" || f.code === "protocol" || f.code === "hello") G.refused = true;
    if (f.code === "closed" && G.result) return;
    status("the server says: " + f.message, true);
  }

  // -- the game as the renderer takes it (viz/html.py's page data) ----------------------------------

  function roundHalfEven(x) { // Python's round(), which viz.scene.Projection uses
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }

  function layouts(shape) { // viz.html._layouts
    const AXES = ["z", "y", "x"], BOARD_AXES = { 0: [2, 1], 1: [2, 0], 2: [1, 0] };
    const out = {};
    AXES.forEach((axis, a) => {
      const [iu, iv] = BOARD_AXES[a];
      const su = shape[iu], sv = shape[iv];
      const entry = { u: iu, v: iv, names: [AXES[iu], AXES[iv]], size: [su, sv], length: shape[a] };
      if (shape[a] < 2) { entry.row = [0, 0, 0]; entry.stack = [0, 0, 0]; }
      else {
        entry.row = [su + Math.max(2, roundHalfEven(0.2 * su)), 0, 0];
        entry.stack = [0, 0, Math.max(3, roundHalfEven(0.45 * Math.max(su, sv)))];
      }
      out[axis] = entry;
    });
    return out;
  }

  const DANGER = 10, INK = 11; // colour indices after the ten players'

  function startRenderer(w) {
    const players = w.players;
    const spectator = w.role === "spectator";
    const me = spectator ? "what every player sees" : "as P" + w.seat + " (" + w.seats[w.seat].name + ") sees it";
    const D = {
      format: "antipolix-page", version: 1, shape: w.rules.shape, players,
      agents: w.seats.map((s) => s.name), last_turn: 0,
      colours: [...CONFIG.palette.slice(0, 10), CONFIG.tones.danger, CONFIG.tones.ink],
      tones: CONFIG.tones,
      types: { 0: "army", 1: "hovercraft", 2: "fortress" },
      traits: { 0: "none", 1: "invisible", 2: "teleporter", 3: "chief", "-1": "unknown" },
      line_kinds: CONFIG.line_kinds, mark_kinds: CONFIG.mark_kinds,
      layouts: layouts(w.rules.shape),
      views: [
        { fog: spectator ? null : w.seat, name: me, seen: spectator ? "the board as every player sees it (R6)" : me + ": enemy invisible pieces hidden, traits unknown (R6)" },
        { fog: null, name: "the truth (at the end)", seen: "the truth (invisible pieces see-through)" },
      ],
      turns: [[{ t: "AntipoliX · " + (w.phase === "armies" ? "armies (R3)" : "waiting for the game") }, {}]],
      start: { turn: 0, mode: "universe", axis: "z", boards: [0, 1, 2].filter((b) => b < w.rules.shape[0]), slice: 0, layout: "row", angle: "oblique", view: 0, events: true },
    };
    window.APX.start(window.THREE, D, { drawn: overlay });
    $("fog").disabled = true;
    G.started = true;
  }

  function pieceRow(p) {
    const trait = p.trait === null ? UNKNOWN : TRAIT_CODE[p.trait];
    return [p.owner, TYPE_CODE[p.type], trait, p.cell[0], p.cell[1], p.cell[2], p.trait === "invisible" ? 1 : 0];
  }

  function piecesDelta(pieces, before) {
    const now = new Map(pieces.map((p) => [p.id, p]));
    const p = [], r = [];
    for (const [id, piece] of now) {
      const old = before.get(id);
      const row = pieceRow(piece);
      if (!old || pieceRow(old).some((v, i) => v !== row[i])) p.push(id, ...row);
    }
    for (const id of before.keys()) if (!now.has(id)) r.push(id);
    const d = {};
    if (p.length) d.p = p;
    if (r.length) d.r = r;
    return [d, now];
  }

  function cellText(c) { return "z" + c[0] + " y" + c[1] + " x" + c[2]; }  // as the engine writes a cell (R1)

  function eventsDelta(events, before) { // viz.scene._EventPainter, from the events as told
    const cells = new Map([...before].map(([id, p]) => [id, p.cell]));
    const kinds = (k) => CONFIG.line_kinds.indexOf(k), marks = (k) => CONFIG.mark_kinds.indexOf(k);
    const l = [], m = [], labels = new Map();
    let combat = null;
    const label = (cell, text, append) => {
      const key = cell.join(",");
      labels.set(key, [cell, append && labels.has(key) ? labels.get(key)[1] + ": " + text : text]);
    };
    const typeOf = (id) => (id !== null && before.has(id) ? TYPE_CODE[before.get(id).type] : -1);
    for (const e of events) {
      if (e.kind === "Moved") {
        l.push(kinds("move"), e.player, ...e.src, ...e.dst);
        cells.set(e.piece, e.dst);
      } else if (e.kind === "Crushed") {
        m.push(marks("crushed"), DANGER, ...e.cell, -1);
        m.push(marks("casualty"), e.victim_owner, ...e.cell, typeOf(e.victim));
        label(e.cell, "invisible crushed");
      } else if (e.kind === "Combat") {
        combat = e;
        for (const id of e.pieces) if (cells.has(id)) l.push(kinds("attack"), e.player, ...cells.get(id), ...e.cell);
        label(e.cell, e.attack + " vs " + e.defence + (e.attack > e.defence ? "" : ": repelled"));
      } else if (e.kind === "Fate") {
        const cell = combat && combat.target === e.target ? combat.cell : cells.get(e.target);
        if (!cell) continue;
        if (e.outcome === "TELEPORT" && e.landing) {
          l.push(kinds("teleport"), e.target_owner, ...cell, ...e.landing);
          if (e.destroyed) { m.push(marks("casualty"), e.target_owner, ...cell, typeOf(e.target)); m.push(marks("destroyed"), DANGER, ...e.landing, -1); }
          label(cell, e.destroyed ? "teleported, destroyed on landing" : "teleported", true);
          cells.set(e.target, e.landing);
        } else if (e.outcome === "CONVERT") {
          m.push(marks("converted"), e.player, ...cell, -1);
          label(cell, "converted", true);
        } else {
          m.push(marks("destroyed"), DANGER, ...cell, -1);
          m.push(marks("casualty"), e.target_owner, ...cell, typeOf(e.target));
          label(cell, e.outcome === "DESTROY" ? "destroyed" : "teleported, destroyed", true);
        }
      } else if (e.kind === "Eliminated") {
        for (const id of e.taken || []) if (cells.has(id) && e.by !== null) m.push(marks("converted"), e.by, ...cells.get(id), -1);
      }
    }
    const d = {};
    if (l.length) d.l = l;
    if (m.length) d.m = m;
    if (labels.size) d.b = [...labels.values()].map(([c, text]) => [...c, text]);
    return d;
  }

  function legendDelta(pieces, living, mine) {
    return G.welcome.seats.map((s, p) => {
      const count = pieces.filter((x) => x.owner === p).length;
      const you = p === G.seat ? " (you)" : "";
      const alive = living.includes(p);
      const noun = p === mine || mine === "truth" ? (count === 1 ? " piece" : " pieces") : " seen";
      const what = !alive && mine !== "truth" ? "out" : count + noun;
      return [p, alive ? 1 : 0, "P" + p + " " + s.name + you + ": " + what];
    });
  }

  function append(turn, own, truth) { // the renderer's turns, up to ``turn`` (turns played)
    // (its turn 0 stands for the armies until the first observation takes its place)
    const first = G.shown < 0;
    if (first && turn > 0) { window.apx.addTurn([{ t: "AntipoliX · turn 0 (not seen: joined later)" }, {}], true); G.shown = 0; }
    while (G.shown >= 0 && G.shown < turn - 1) { G.shown++; window.apx.addTurn([{ t: "AntipoliX · turn " + G.shown + " (not seen: joined later)" }, {}]); }
    window.apx.addTurn([own, truth], first && turn === 0);
    G.shown = turn;
  }

  function addTurn(turn, pieces, events, living, told, mine, title) {
    if (turn <= G.shown) return false; // already shown (a reconnect sends it again)
    const [d, now] = piecesDelta(pieces, G.before);
    Object.assign(d, eventsDelta(events, G.before));
    d.e = legendDelta(pieces, living, mine);
    if (told.length) d.g = told.slice(0, 12);
    d.t = title;
    G.before = now;
    G.seen.set(turn, now);
    append(turn, d, {});
    return true;
  }

  // -- frames --------------------------------------------------------------------------------------

  function welcome(w) {
    G.welcome = w; G.seat = w.seat; G.role = w.role; G.rules = w.rules; G.shape = w.rules.shape;
    G.players = w.players; G.retry = 0;
    if (!G.started) startRenderer(w);
    const s = G.seat !== null ? w.seats[G.seat] : null;
    $("me").textContent = s ? "P" + G.seat + " " + s.name + " (" + s.kind + ") in game " + w.game : "a spectator of game " + w.game + (w.watch === "end" ? " (the board is shown at the end)" : "");
    $("me").style.color = s ? CONFIG.palette[G.seat] : "";
    $("play-hint").hidden = G.role !== "player"; // (a spectator gives no orders)
    status(w.phase === "armies" ? "the armies are being chosen (R3)" : w.phase === "paused" ? "the game starts again after a restart…" : "connected");
    G.phase = w.phase;
    if (G.role === "player" && w.phase === "armies" && w.army === null) showShop(w);
    else if (G.role === "player" && w.phase === "armies") status("your army is placed: waiting for the others (R3)");
    $("clock-box").hidden = false;
    if (G.role === "player") {
      const to = $("to");
      to.textContent = "";
      to.add(new Option("to everyone", ""));
      w.seats.forEach((x, p) => { if (p !== G.seat) to.add(new Option("to P" + p + " " + x.name, String(p))); });
    }
    document.documentElement.dataset.connected = "1";
  }

  function observation(f) {
    const obs = f.observation;
    G.phase = "play";
    $("army-box").hidden = true;
    G.army.cells = [];
    const title = "AntipoliX · turn " + obs.turn + (f.turn !== null ? " · your move (turn " + f.turn + ")" : "");
    const told = (f.told || []).concat(obs.messages.map((x) => "P" + x.sender + (x.to === null ? " to all" : " to you") + ": " + x.text));
    if (addTurn(obs.turn, obs.pieces, obs.events, obs.living, told, G.seat, title)) {
      for (const x of obs.messages) G.inbox.push(x);
      showInbox();
    }
    for (const line of f.told || []) G.log.push("turn " + obs.turn + ": " + line);
    G.obs = obs;
    if (f.turn !== null && f.turn !== G.turn) {
      G.turn = f.turn; G.submitted = false; clearOrder();
    }
    if (f.turn === null) {
      G.turn = null;
      if (!obs.living.includes(G.seat)) { G.out = true; status("you are out of the game (" + outWhy(obs) + "); you may watch on"); }
    }
    $("order-box").hidden = G.turn === null;
    $("talk-box").hidden = G.turn === null;
    $("order-turn").textContent = G.turn === null ? "" : String(G.turn);
    if (f.clocks) setClocks(f.clocks);
    if (G.turn !== null && !G.submitted) status("your move: turn " + G.turn);
    orderPanel();
  }

  function outWhy(obs) {
    const e = obs.events.find((x) => x.kind === "Eliminated" && x.player === G.seat);
    if (!e) return "eliminated";
    return e.reason === "timer" ? "your timer ran out, R7" : e.reason === "quit" ? "you quit, R9" : "your chief was taken by P" + e.by + ", R8";
  }

  function view(f) { // the public view (spectators; players once out)
    const v = f.view;
    addTurn(v.turn, v.pieces, v.events, v.living, v.events.filter((e) => e.kind === "Eliminated").map((e) => "P" + e.player + " ELIMINATED (" + e.reason + ")"), null, "AntipoliX · turn " + v.turn + " · as every player sees it");
    if (f.clocks) setClocks(f.clocks);
  }

  function received(f) {
    if (f.turn !== G.turn) return;
    G.submitted = true;
    G.staged = null; G.selected = [];
    status("order sent for turn " + f.turn + " (" + f.at.toFixed(2) + " s into the turn)" + (f.legal_now ? "" : ": not valid as things stand (R4), it will be rejected unless the board changes first"));
    orderPanel();
    redraw();
  }

  function queued(f) {
    status(f.sent ? "sent" : "message queued: it goes with your order of turn " + f.turn + " (R9)");
  }

  function out(f) {
    const name = G.welcome ? G.welcome.seats[f.player].name : "";
    const why = f.reason === "timer" ? "its timer ran out (R7)" : f.reason;
    G.log.push("turn " + f.turn + ": P" + f.player + " " + name + " is out at " + f.at.toFixed(2) + " s: " + why);
    if (f.player === G.seat) { G.turn = null; status("you are out: " + why, true); $("order-box").hidden = true; }
  }

  function armyPlaced(f) {
    $("army-box").hidden = true;
    G.army.cells = [];
    redraw();
    status("army placed (" + f.items.length + " pieces): waiting for " + (f.waiting_for.length ? "P" + f.waiting_for.join(", P") : "the game"));
  }

  function result(f) {
    G.result = f;
    G.turn = null;
    const r = f.result;
    const names = G.welcome.seats;
    const text = r.winner === null ? "draw: " + r.why : "P" + r.winner + " " + names[r.winner].name + " wins: " + r.why;
    $("result").textContent = text + ", after " + r.turns + " turns" + (r.winner === G.seat && G.seat !== null ? " (you!)" : "");
    $("result-box").hidden = false;
    $("order-box").hidden = true;
    $("talk-box").hidden = true;
    status("the game is over; its replay is " + f.replay + " (download it below)");
    // the end: the truth, now that nothing is hidden any more (a last step of the slider)
    const [truth] = piecesDelta(f.truth, new Map());
    truth.t = "AntipoliX · the end · " + text;
    truth.e = legendDelta(f.truth, r.winner === null ? [] : [r.winner], "truth");
    truth.g = [text + ", after " + r.turns + " turns"];
    truth.n = "the end";  // (a step of its own, not a turn: the slider says so)
    const own = { t: truth.t, g: truth.g, n: truth.n };
    window.apx.addTurn([own, truth]); // (the renderer's last turn, one past G.shown)
    $("fog").disabled = false;
    $("fog").value = "1";
    $("fog").dispatchEvent(new Event("change"));
    setClocks(null);
    document.documentElement.dataset.over = "1";
  }

  // -- clocks (R7) -----------------------------------------------------------------------------------

  function setClocks(c) {
    G.clocks = c;
    G.clocksAt = performance.now();
    drawClocks();
  }

  function clockValues() { // every living player's seconds now, run on from the last frame
    const c = G.clocks;
    if (!c) return {};
    const timers = c.timers || {};
    const living = Object.keys(timers).map(Number);
    const done = new Set(c.submitted);
    const m = living.length, k = living.filter((p) => done.has(p)).length;
    const dt = c.running ? (performance.now() - G.clocksAt) / 1000 : 0;
    const out = {};
    for (const p of living) out[p] = done.has(p) ? timers[p] + (m - k) * dt : Math.max(0, timers[p] - k * dt);
    return out;
  }

  function drawClocks() {
    const list = $("clocks");
    list.textContent = "";
    if (!G.welcome) return;
    const values = clockValues();
    const c = G.clocks;
    G.welcome.seats.forEach((s, p) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = CONFIG.palette[p];
      const name = document.createElement("span");
      name.textContent = "P" + p + " " + s.name;
      if (c && c.submitted.includes(p)) name.className = "answered";
      const time = document.createElement("span");
      time.textContent = p in values ? values[p].toFixed(1) + " s" : G.rules && !G.rules.timers ? "no timers" : "—";
      if (p === G.seat) li.className = "me";
      if (G.obs && !G.obs.living.includes(p)) li.className += " out";
      li.append(sw, name, time);
      list.appendChild(li);
    });
  }
  setInterval(() => { if (G.clocks && G.clocks.running) drawClocks(); }, 100);

  // -- the army (R3) ---------------------------------------------------------------------------------

  const SHOP = [];
  for (const t of TYPES) for (const tr of ["none", "invisible", "teleporter"]) SHOP.push(tr === "none" ? t : t + "+" + tr);

  function showShop(w) {
    const table = $("shop");
    table.textContent = "";
    for (const item of SHOP) {
      if (!(item in G.army.counts)) G.army.counts[item] = 0;
      const tr = document.createElement("tr");
      tr.innerHTML = '<td></td><td class="c"></td><td><button type="button" aria-label="fewer">−</button></td><td class="n"></td><td><button type="button" aria-label="more">+</button></td>';
      tr.cells[0].textContent = item.replace("+", " ");
      tr.cells[1].textContent = w.costs[item] + " pts";
      const [less, more] = tr.querySelectorAll("button");
      less.dataset.item = more.dataset.item = item;
      less.addEventListener("click", () => { G.army.counts[item] = Math.max(0, G.army.counts[item] - 1); G.army.cells = []; shopChanged(); });
      more.addEventListener("click", () => { G.army.counts[item]++; G.army.cells = []; shopChanged(); });
      table.appendChild(tr);
    }
    const chief = $("chief");
    chief.textContent = "";
    for (const t of TYPES) chief.add(new Option(t + " (" + w.costs[t + "+chief"] + " pts)", t));
    chief.value = G.army.chief;
    $("army-box").hidden = false;
    shopChanged();
  }

  function armyItems() {
    const items = [G.army.chief + "+chief"];
    for (const item of SHOP) for (let i = 0; i < G.army.counts[item]; i++) items.push(item);
    return items;
  }

  function armyCost() { return armyItems().reduce((s, i) => s + G.welcome.costs[i], 0); }

  // the most pieces an army can place (R3: the welcome's room, Rules.room)
  const room = () => G.welcome.room;

  // the points left when a piece could still be bought with them and placed (R3: a budget
  // need not be spent, but an army placed by a click too early is a game lost before it
  // starts); else 0
  function unspent(cost = armyCost()) {
    const w = G.welcome;
    const left = w.budget - cost;
    if (armyItems().length >= room()) return 0;
    return SHOP.some((item) => w.costs[item] <= left) ? left : 0;
  }

  function shopChanged() {
    const w = G.welcome;
    $("shop").querySelectorAll("tr").forEach((tr, i) => { tr.cells[3].textContent = String(G.army.counts[SHOP[i]]); });
    const cost = armyCost();
    $("spent").textContent = cost + " of " + w.budget + " points";
    $("spent").classList.toggle("over", cost > w.budget);
    const full = armyItems().length >= room();  // (another piece could not be placed)
    $("shop").querySelectorAll('button[aria-label="more"]').forEach((b) => { b.disabled = full || cost + w.costs[b.dataset.item] > w.budget; });
    $("shop").querySelectorAll('button[aria-label="fewer"]').forEach((b) => { b.disabled = G.army.counts[b.dataset.item] === 0; });
    $("place").disabled = cost > w.budget || (G.army.where === "choose" && G.army.cells.length < armyItems().length);
    const left = unspent(cost);
    $("place").textContent = left > 0 ? "place this army (" + left + " points unspent)" : "place this army";
    const items = armyItems();
    const zone = w.zone;
    $("placing").textContent = G.army.where === "choose"
      ? (G.army.cells.length < items.length ? "click a cell of your zone for the " + items[G.army.cells.length].replace("+", " ") + " (" + (G.army.cells.length + 1) + " of " + items.length + ")" : "every piece has its cell: place the army")
      : zone ? "your zone: " + ["z", "y", "x"].map((a, i) => a + zone.lo[i] + ".." + (zone.hi[i] - 1)).join(" ") : "";  // (z, y, x), as the engine writes a zone
    $("undo").hidden = G.army.where !== "choose";
    redraw();
  }

  function zoneCells() {
    const z = G.welcome.zone;
    const out = [];
    if (!z) return out;
    for (let a = z.lo[0]; a < z.hi[0]; a++) for (let b = z.lo[1]; b < z.hi[1]; b++) for (let c = z.lo[2]; c < z.hi[2]; c++) out.push([a, b, c]);
    return out;
  }

  // -- orders (R4, R5) ------------------------------------------------------------------------------

  const cheb = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
  const key = (c) => c.join(",");

  function within(centre, r, into) {
    const [P, N, M] = G.shape;
    for (let dz = -r; dz <= r; dz++) for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
      const c = [centre[0] + dz, centre[1] + dy, centre[2] + dx];
      if (c[0] >= 0 && c[0] < P && c[1] >= 0 && c[1] < N && c[2] >= 0 && c[2] < M) into.set(key(c), c);
    }
  }

  function reach(piece, own) { // R5 with the player's own teleporters (all it can know of)
    const r = G.rules[piece.type].move;
    const out = new Map();
    if (r <= 0) return out;
    within(piece.cell, r, out);
    const tele = own.filter((p) => p.trait === "teleporter");
    const field = G.rules.teleport_field;
    const component = new Map();
    tele.forEach((t, i) => {
      if (component.has(t.id)) return;
      const stack = [t];
      component.set(t.id, i);
      while (stack.length) {
        const a = stack.pop();
        for (const b of tele) if (!component.has(b.id) && cheb(a.cell, b.cell) <= field) { component.set(b.id, i); stack.push(b); }
      }
    });
    for (const s of tele) {
      if (s.id === piece.id || cheb(s.cell, piece.cell) > 1) continue;
      for (const d of tele) if (d.id !== s.id && component.get(d.id) === component.get(s.id)) within(d.cell, r, out);
    }
    out.delete(key(piece.cell));
    return out;
  }

  function computeTargets() {
    G.targets = { move: new Map(), attack: new Map() };
    if (!G.obs || G.turn === null || G.submitted) return;
    const pieces = G.obs.pieces;
    const own = pieces.filter((p) => p.owner === G.seat);
    const taken = new Set(pieces.map((p) => key(p.cell)));
    const chosen = own.filter((p) => G.selected.includes(p.id));
    const reaches = chosen.map((p) => [p, reach(p, own)]);
    if (chosen.length === 1) for (const [k, c] of reaches[0][1]) if (!taken.has(k)) G.targets.move.set(k, c);
    for (const e of pieces) {
      if (e.owner === G.seat) continue;
      const by = reaches.filter(([, r]) => r.has(key(e.cell))).map(([p]) => p.id);
      if (by.length) G.targets.attack.set(key(e.cell), { cell: e.cell, by, piece: e });
    }
  }

  function pieceName(p) {
    return (p.owner === G.seat && p.trait !== "none" ? p.trait + " " : "") + p.type + " #" + p.id;
  }

  function orderPanel() {
    computeTargets();
    const text = $("order-text");
    if (G.submitted) text.textContent = "sent: wait for the others' orders";
    else if (G.staged) text.textContent = G.staged.text;
    else if (G.selected.length) {
      const own = new Map(G.obs.pieces.map((p) => [p.id, p]));
      text.textContent = "selected: " + G.selected.map((id) => pieceName(own.get(id))).join(", ") + (G.selected.length === 1 ? ": click a green cell to move or a red piece to attack" : ": click a red piece to attack with them");
    } else text.textContent = "Click your pieces, then a highlighted cell: green to move, red to attack.";
    text.classList.toggle("staged", !!G.staged);
    $("send").disabled = !G.staged || G.submitted;
    $("pass").disabled = G.submitted || G.turn === null;
    redraw();
  }

  function clearOrder() { G.selected = []; G.staged = null; orderPanel(); }

  function sendOrder(order) {
    if (G.turn === null || G.submitted) return;
    if (send({ type: "order", turn: G.turn, order })) status("sending the order…");
  }

  // -- what the page draws over the pieces, and what a click picks -----------------------------------

  let overlayGroup = null;

  function overlay(lay, sc) {
    const api = window.apx.scene3d();
    const THREE = api.THREE;
    if (overlayGroup) {
      overlayGroup.parent && overlayGroup.parent.remove(overlayGroup);
      overlayGroup.traverse((o) => { if (o.geometry) o.geometry.dispose(); if (o.material) o.material.dispose(); });
    }
    overlayGroup = new THREE.Group();
    api.scene.add(overlayGroup);
    if (api.S.view !== 0 || (G.phase !== "armies" && api.S.turn !== G.shown)) return;
    const box = (cell, size, colour, opacity) => {
      const p = lay.place(cell);
      if (!p) return;
      const s = size * sc;
      const mesh = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.BoxGeometry(s, s, s)), new THREE.LineBasicMaterial({ color: colour, transparent: opacity < 1, opacity }));
      mesh.position.set(p[0], p[1], p[2]);
      overlayGroup.add(mesh);
    };
    const dot = (cell, colour, radius) => {
      const p = lay.place(cell);
      if (!p) return;
      const mesh = new THREE.Mesh(new THREE.SphereGeometry(radius * sc, 10, 8), new THREE.MeshBasicMaterial({ color: colour, transparent: true, opacity: 0.8 }));
      mesh.position.set(p[0], p[1], p[2]);
      overlayGroup.add(mesh);
    };
    if (G.phase === "armies" && !$("army-box").hidden && G.army.where === "choose") {
      const used = new Set(G.army.cells.map(key));
      for (const c of zoneCells()) if (!used.has(key(c))) dot(c, "#8C877D", 0.09);
      for (const c of G.army.cells) box(c, 0.8, CONFIG.palette[G.seat], 1);
      return;
    }
    if (!G.obs || G.turn === null || G.submitted) return;
    const own = new Map(G.obs.pieces.map((p) => [p.id, p]));
    for (const id of G.selected) if (own.has(id)) box(own.get(id).cell, 0.95, CONFIG.tones.ink, 1);
    for (const c of G.targets.move.values()) dot(c, GREEN, 0.13);
    for (const t of G.targets.attack.values()) box(t.cell, 1.0, RED, 1);
    if (G.staged) box(G.staged.order.cell, 1.1, GREEN, 1);
  }

  function redraw() {
    if (G.started && window.apx && window.apx.scene3d) window.apx.scene3d().redraw();
  }

  function screenOf(cell) { // where a cell is drawn, in CSS pixels of the page (null: not shown)
    const api = window.apx.scene3d();
    const p = api.lay.place(cell);
    if (!p) return null;
    const v = new api.THREE.Vector3(p[0], p[1], p[2]).project(api.camera);
    if (v.z > 1) return null;
    const rect = api.canvas.getBoundingClientRect();
    return { x: rect.left + (v.x + 1) / 2 * rect.width, y: rect.top + (1 - v.y) / 2 * rect.height };
  }

  function candidates() { // what a click may pick now: [{kind, cell, ...}]
    const out = [];
    if (G.phase === "armies" && !$("army-box").hidden && G.army.where === "choose") {
      const used = new Set(G.army.cells.map(key));
      for (const c of zoneCells()) if (!used.has(key(c))) out.push({ kind: "zone", cell: c });
      return out;
    }
    if (!G.obs || G.turn === null || G.submitted || window.apx.state().turn !== G.shown) return out;
    for (const c of G.targets.move.values()) out.push({ kind: "move", cell: c });
    for (const t of G.targets.attack.values()) out.push({ kind: "attack", cell: t.cell, target: t });
    for (const p of G.obs.pieces) if (p.owner === G.seat && G.rules[p.type].move > 0) out.push({ kind: "piece", cell: p.cell, piece: p });
    return out;
  }

  function pick(x, y) {
    let best = null, bestDist = PICK_PX;
    for (const c of candidates()) {
      const s = screenOf(c.cell);
      if (!s) continue;
      const d = Math.hypot(s.x - x, s.y - y);
      if (d < bestDist || (d === bestDist && best && c.kind !== "piece")) { best = c; bestDist = d; }
    }
    if (!best) return null;
    if (best.kind === "zone") {
      G.army.cells.push(best.cell);
      shopChanged();
    } else if (best.kind === "piece") {
      const id = best.piece.id;
      G.staged = null;
      G.selected = G.selected.includes(id) ? G.selected.filter((x) => x !== id) : [...G.selected, id];
      orderPanel();
    } else if (best.kind === "move") {
      const piece = G.obs.pieces.find((p) => p.id === G.selected[0]);
      G.staged = { order: { kind: "Move", piece: piece.id, cell: best.cell }, text: "move " + pieceName(piece) + " to " + cellText(best.cell) };
      orderPanel();
    } else if (best.kind === "attack") {
      const own = new Map(G.obs.pieces.map((p) => [p.id, p]));
      const t = best.target;
      G.staged = { order: { kind: "Attack", pieces: t.by, cell: t.cell }, text: "attack " + pieceName(t.piece) + " (P" + t.piece.owner + ") at " + cellText(t.cell) + " with " + t.by.map((id) => pieceName(own.get(id))).join(", ") };
      orderPanel();
    }
    return best.kind;
  }

  // -- the page's controls ---------------------------------------------------------------------------

  let down = null;
  $("view").addEventListener("pointerdown", (ev) => { down = [ev.clientX, ev.clientY]; });
  $("view").addEventListener("click", (ev) => {
    if (down && Math.hypot(ev.clientX - down[0], ev.clientY - down[1]) > 5) return; // a drag
    pick(ev.clientX, ev.clientY);
  });
  $("send").addEventListener("click", () => { if (G.staged) sendOrder(G.staged.order); });
  $("pass").addEventListener("click", () => sendOrder({ kind: "Pass" }));
  $("clear").addEventListener("click", clearOrder);
  $("chief").addEventListener("change", () => { G.army.chief = $("chief").value; G.army.cells = []; shopChanged(); });
  document.querySelectorAll('input[name="where"]').forEach((r) => r.addEventListener("change", () => { G.army.where = r.value; G.army.cells = []; shopChanged(); }));
  $("undo").addEventListener("click", () => { G.army.cells.pop(); shopChanged(); });
  $("place").addEventListener("click", () => {
    const left = unspent();
    if (left > 0 && !confirm(left + " of your " + G.welcome.budget + " points are unspent (R3). Place this army of " + armyItems().length + " pieces anyway?")) return;
    const items = armyItems();
    send({ type: "army", items, cells: G.army.where === "choose" ? G.army.cells.slice(0, items.length) : null });
  });
  // the replay the server wrote at the end (GET /api/games/GAME/replay with this page's token),
  // saved by the browser under the server's name for it
  $("get-replay").addEventListener("click", async () => {
    let answer;
    try {
      answer = await fetch("/api/games/" + encodeURIComponent(GAME) + "/replay", { headers: { Authorization: "Bearer " + TOKEN } });
    } catch (e) {
      status("the replay could not be fetched: the server cannot be reached");
      return;
    }
    if (!answer.ok) {
      const why = await answer.json().then((j) => j.error, () => "HTTP " + answer.status);
      status("the replay could not be fetched: " + why);
      return;
    }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await answer.blob());
    link.download = (G.result && G.result.replay) || GAME + ".apx.json.gz";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
  $("talk").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("text").value;
    if (!text.trim()) return;
    const to = $("to").value;
    if (send({ type: "message", text, to: to === "" ? null : Number(to) })) {
      G.inbox.push({ turn: G.turn, sender: G.seat, text, to: to === "" ? null : Number(to), mine: true });
      $("text").value = "";
      showInbox();
    }
  });
  $("nul").addEventListener("click", () => { if (send({ type: "command", command: "NUL" })) G.inbox.push({ sender: G.seat, text: "(you propose a draw: NUL)", to: null, mine: true }); showInbox(); });
  $("war").addEventListener("click", () => { if (send({ type: "command", command: "WAR" })) G.inbox.push({ sender: G.seat, text: "(you withdraw your draw: WAR)", to: null, mine: true }); showInbox(); });
  $("quit").addEventListener("click", () => { if (confirm("Leave the game? Your pieces are removed (R9 QUIT).")) send({ type: "command", command: "QUIT" }); });
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target && ev.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return;
    if (ev.key === "Enter" && G.staged) { ev.preventDefault(); sendOrder(G.staged.order); }
    else if (ev.key === "Escape") clearOrder();
  });

  function showInbox() {
    const list = $("inbox");
    list.textContent = "";
    for (const x of G.inbox.slice(-50)) {
      const li = document.createElement("li");
      const who = x.mine ? "you" + (x.to === null ? "" : " to P" + x.to) : "P" + x.sender + (x.to === null ? "" : " (to you)");
      li.textContent = who + ": " + x.text;
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  // the page's scripting interface (its tests)
  window.apxPlay = {
    state() {
      return {
        phase: G.phase, seat: G.seat, role: G.role, turn: G.turn, shown: G.shown, submitted: G.submitted,
        out: G.out, selected: G.selected.slice(), staged: G.staged ? G.staged.order : null,
        move: [...G.targets.move.values()], attack: [...G.targets.attack.values()].map((t) => ({ cell: t.cell, by: t.by })),
        clocks: clockValues(), result: G.result ? G.result.result : null, errors: G.errors.slice(),
        log: G.log.slice(-40), inbox: G.inbox.map((x) => x.text), status: $("status").textContent,
        army: armyItems(), cost: G.welcome ? armyCost() : 0, cells: G.army.cells.slice(),
      };
    },
    seen: (turn) => (G.seen.has(turn) ? [...G.seen.get(turn).values()] : null),
    screenOf,
    layouts,
    zone: () => zoneCells(),
    observation: () => G.obs,
  };

  if (!TOKEN) { status("this link has no secret after '#': ask the host for your link", true); return; }
  if (!window.APX) { status("the page's renderer did not load", true); return; }
  connect();
})();
