// The replay page of a 2D game: draws the Scene2D marks viz.board2d serialised, as SVG.
// Plain script, no build step, no library. window.apx is the page's scripting interface
// (state(), setTurn(), setView()), used by its tests, as on the 3D page.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";

  function fail(error) {
    const box = $("message");
    box.hidden = false;
    box.textContent = "This replay cannot be shown: " + (error && error.message ? error.message : error);
    document.documentElement.dataset.error = box.textContent;
    console.error(error);
  }

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  const INK = "#1A1A1A";
  function luminance(hex) {
    const v = parseInt(hex.slice(1), 16);
    return 0.299 * ((v >> 16) & 255) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
  }
  const inkOn = (hex) => (luminance(hex) > 150 ? INK : "#FFFFFF"); // dark text on light colours

  function start(D) {
    const board = $("board");
    let turn = D.start.turn, view = D.start.view, timer = null;
    // a seat's colour at the turn shown: its side's when the game names them (Sight's White and
    // Black, which a Swap exchanges), else the palette's; the board's ink for no seat
    const colour = (seat) => {
      if (seat === null || seat === undefined) return INK;
      const named = D.views[view].turns[turn].colours;
      return named ? named[seat] : D.players[seat].colour;
    };

    const pad = 0.7;
    board.setAttribute("viewBox", `${-pad} ${-pad} ${D.width - 1 + 2 * pad} ${D.height - 1 + 2 * pad}`);
    board.setAttribute("preserveAspectRatio", "xMidYMid meet");
    const defs = el("defs", {}, board);
    const heads = new Map(); // an arrow head per colour, made when first drawn
    function head(c) {
      if (!heads.has(c)) {
        const id = "head" + heads.size;
        const m = el("marker", { id: id, viewBox: "0 0 10 10", refX: "7", refY: "5",
          markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
        el("path", { d: "M0 0L10 5L0 10z", fill: c }, m);
        heads.set(c, `url(#${id})`);
      }
      return heads.get(c);
    }
    const layer = el("g", {}, board);

    $("title").textContent = D.title;
    const players = $("players");
    const swatches = [];
    D.players.forEach((p) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      swatches.push(sw);
      li.appendChild(sw);
      const place = D.places[p.seat] + 1;
      li.appendChild(document.createTextNode(`seat ${p.seat}: ${p.agent} (place ${place})`));
      players.appendChild(li);
    });
    const fog = $("fog");
    D.views.forEach((v, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = v.seat === null ? "everything" : `seat ${v.seat} (${D.players[v.seat].agent})`;
      fog.appendChild(o);
    });
    if (D.views.length < 2) $("fog-label").hidden = true;
    const slider = $("turn");
    slider.max = String(D.last_turn);

    function draw() {
      const scene = D.views[view].turns[turn];
      layer.replaceChildren();
      for (const [kind, x, y, x2, y2, seat, label, size] of scene.marks) {
        const c = colour(seat);
        if (kind === "segment") {
          el("line", { x1: x, y1: y, x2: x2, y2: y2, class: "seg" }, layer);
        } else if (kind === "point") {
          el("circle", { cx: x, cy: y, r: size, class: "pt" }, layer);
        } else if (kind === "piece") {
          el("circle", { cx: x, cy: y, r: size || 0.3, fill: c, class: "piece", "data-seat": seat }, layer);
          if (label) el("text", { x: x, y: y, fill: inkOn(c) }, layer).textContent = label;
        } else if (kind === "ring") {
          el("circle", { cx: x, cy: y, r: size || 0.4, stroke: c, class: "ring" }, layer);
          if (label) {
            el("text", { x: x + (size || 0.4) * 0.8, y: y - (size || 0.4) * 0.8, fill: c, class: "small" }, layer).textContent = label;
          }
        } else if (kind === "arrow") {
          const dx = x2 - x, dy = y2 - y, len = Math.hypot(dx, dy) || 1, cut = 0.32 / len;
          el("line", { x1: x + dx * cut, y1: y + dy * cut, x2: x2 - dx * cut, y2: y2 - dy * cut,
            stroke: c, class: "arrow", "marker-end": head(c) }, layer);
        }
      }
      swatches.forEach((sw, seat) => { sw.style.background = colour(seat); });
      $("subtitle").textContent = scene.caption;
      const log = $("log");
      log.replaceChildren();
      for (const [seat, text] of D.actions[turn]) {
        const line = document.createElement("div");
        const who = document.createElement("b");
        who.textContent = `seat ${seat} (${D.players[seat].agent}): `;
        who.style.color = luminance(colour(seat)) > 220 ? INK : colour(seat); // (White's would not show)
        line.appendChild(who);
        line.appendChild(document.createTextNode(text));
        log.appendChild(line);
      }
      if (turn === D.last_turn) {
        const end = document.createElement("div");
        end.className = "out";
        end.textContent = D.winner === null ? `a draw (${D.result})`
          : `seat ${D.winner} (${D.players[D.winner].agent}) wins (${D.result.replace("_", " ")})`;
        log.appendChild(end);
      }
      slider.value = String(turn);
      $("turn-text").textContent = `turn ${turn} of ${D.last_turn}`;
      fog.value = String(view);
    }

    function setTurn(t) { turn = Math.max(0, Math.min(D.last_turn, t | 0)); draw(); }
    function setView(v) { view = Math.max(0, Math.min(D.views.length - 1, v | 0)); draw(); }
    function stop() { if (timer) { clearInterval(timer); timer = null; } $("play").classList.remove("playing"); }
    function play() {
      if (timer) return stop();
      if (turn >= D.last_turn) setTurn(0);
      $("play").classList.add("playing");
      timer = setInterval(() => { if (turn >= D.last_turn) stop(); else setTurn(turn + 1); },
        1000 / Number($("speed").value));
    }

    slider.addEventListener("input", () => { stop(); setTurn(Number(slider.value)); });
    $("first").onclick = () => { stop(); setTurn(0); };
    $("prev").onclick = () => { stop(); setTurn(turn - 1); };
    $("next").onclick = () => { stop(); setTurn(turn + 1); };
    $("last").onclick = () => { stop(); setTurn(D.last_turn); };
    $("play").onclick = play;
    $("speed").onchange = () => { if (timer) { stop(); play(); } };
    fog.onchange = () => setView(Number(fog.value));
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      if (e.key === " ") { e.preventDefault(); play(); }
      else if (e.key === "ArrowLeft") { stop(); setTurn(turn - 1); }
      else if (e.key === "ArrowRight") { stop(); setTurn(turn + 1); }
      else if (e.key === "Home") { stop(); setTurn(0); }
      else if (e.key === "End") { stop(); setTurn(D.last_turn); }
      else if (e.key === "f" && D.views.length > 1) setView((view + 1) % D.views.length);
    });
    window.apx = {
      state: () => ({ turn, view, pieces: layer.querySelectorAll("circle.piece").length, caption: D.views[view].turns[turn].caption }),
      setTurn, setView,
    };
    draw();
    document.documentElement.dataset.ready = "1";
  }

  try {
    const D = JSON.parse($("apx-data").textContent);
    if (D.format !== "antipolix-page-2d") throw new Error("no replay data in this page");
    start(D);
  } catch (e) {
    fail(e);
  }
})();
