// The replay page's renderer: draws the scenes viz.html serialised (see viz/html.py) with three.js.
// Plain script, no build step: the page unpacks three.js (global THREE) and the game, then starts.
// window.apx is the page's scripting interface (state(), setTurn(), ...), used by its tests.
// The live client (play.js, antipolix serve) starts the same renderer with window.APX.start and
// appends each turn as it is played (apx.addTurn).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  function fail(error) {
    const box = $("message");
    box.hidden = false;
    box.textContent = "This replay cannot be shown: " + (error && error.message ? error.message : error);
    document.documentElement.dataset.error = box.textContent;
    console.error(error);
  }

  async function inflate(id) {
    const text = $(id).textContent.trim();
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return await new Response(stream).text();
  }

  async function boot() {
    if (typeof DecompressionStream === "undefined") {
      throw new Error("this browser is too old (no DecompressionStream): use a current Chrome, Edge, Firefox or Safari");
    }
    const [three, data] = await Promise.all([inflate("apx-three"), inflate("apx-data")]);
    const script = document.createElement("script");
    script.textContent = three;
    document.head.appendChild(script);
    if (!window.THREE) throw new Error("the 3D library did not load");
    const game = JSON.parse(data);
    if (game.format !== "antipolix-page") throw new Error("no replay data in this page");
    start(window.THREE, game);
  }

  // ---------------------------------------------------------------------------------------------

  function start(THREE, D, hooks = {}) {
    const canvas = $("view");
    let renderer;
    try {
      renderer = new THREE.WebGLRenderer({ canvas, antialias: true, alpha: true });
    } catch (e) {
      throw new Error("WebGL is not available in this browser (" + e.message + ")");
    }
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.setClearColor(0x000000, 0);

    let LAST = D.last_turn; // grows on a live page (apx.addTurn)
    const [P, N, M] = D.shape;
    const AXES = ["z", "y", "x"];
    const TYPE = D.types; // code -> name
    const TRAIT = D.traits;
    const TOP = { army: 0.28, hovercraft: 0.17, fortress: 0.36 };
    const BOARD_SCALE = 1.3; // pieces on 2D boards are drawn larger (viz.render BOARD_GLYPH_SCALE)
    const DENSE = 600; // above this many pieces: no drop lines or shadows
    const GHOST_OPACITY = 0.3;
    const colour = (i) => D.colours[i];
    const ink = D.tones.ink;
    const danger = D.tones.danger;

    // -- the game, turn by turn, per view --------------------------------------------------------

    // per view and turn: pieces (Map id -> row [owner, type, trait, z, y, x, ghost]) and legend
    // entries ([{player, alive, text}]), each turn folded onto the one before
    const views = D.views.map((v) => ({ fog: v.fog, name: v.name, seen: v.seen, seenFrom: v.seen_from || [], pieces: [], entries: [] }));
    function seenAt(V, turn) { // what a view sees at a turn: "nothing" once its seat is out (R6)
      let text = V.seen;
      for (const [from, then] of V.seenFrom) if (turn >= from) text = then;
      return text;
    }
    function fold(t) {
      views.forEach((V, k) => {
        let now = t > 0 ? V.pieces[t - 1] : new Map();
        let legend = t > 0 ? V.entries[t - 1] : [];
        if (t === 0) for (let p = 0; p < D.players; p++) legend.push({ player: p, alive: true, text: "P" + p });
        const d = D.turns[t][k];
        if (d.p || d.r) {
          now = new Map(now);
          for (const id of d.r || []) now.delete(id);
          const p = d.p || [];
          for (let i = 0; i < p.length; i += 8) now.set(p[i], p.slice(i + 1, i + 8));
        }
        if (d.e) {
          legend = legend.slice();
          for (const [player, alive, text] of d.e) legend[player] = { player, alive: !!alive, text };
        }
        V.pieces.push(now);
        V.entries.push(legend);
      });
    }
    for (let t = 0; t <= LAST; t++) fold(t);

    const S = {
      turn: Math.min(Math.max(D.start.turn | 0, 0), LAST),
      mode: D.start.mode,
      axis: D.start.axis,
      boards: D.start.boards.slice(),
      slice: D.start.slice,
      layout: D.start.layout,
      view: D.start.view,
      events: D.start.events,
      angle: D.start.angle || "oblique",
      playing: false,
      speed: 4,
    };

    // -- where cells go (viz.scene.Projection) ----------------------------------------------------

    function shown() {
      if (S.mode === "universe") return [];
      return S.mode === "slice" ? [S.slice] : S.boards;
    }

    function layoutOf() {
      if (S.mode === "universe") {
        return {
          place: (c) => [c[2], c[1], c[0]],
          bounds: [-0.5, M - 0.5, -0.5, N - 0.5, -0.5, P - 0.5],
          scale: 1,
        };
      }
      const L = D.layouts[S.axis];
      const a = AXES.indexOf(S.axis);
      const list = shown();
      const step = L[S.layout];
      const slot = new Map(list.map((s, i) => [s, i]));
      const last = list.length - 1;
      return {
        place(c) {
          const k = slot.get(Math.round(c[a]));
          if (k === undefined) return null;
          return [c[L.u] + k * step[0], c[L.v] + k * step[1], k * step[2]];
        },
        bounds: [
          -0.5, L.size[0] - 0.5 + last * step[0],
          -0.5, L.size[1] - 0.5 + last * step[1],
          -0.5, 0.5 + last * step[2],
        ],
        scale: BOARD_SCALE,
        list, step, L,
      };
    }

    // -- glyph templates (viz.render.templates) ----------------------------------------------------

    function merged(geometries) {
      const pos = [], nor = [];
      for (const g0 of geometries) {
        const g = g0.index ? g0.toNonIndexed() : g0;
        pos.push(...g.attributes.position.array);
        nor.push(...g.attributes.normal.array);
      }
      const out = new THREE.BufferGeometry();
      out.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
      out.setAttribute("normal", new THREE.Float32BufferAttribute(nor, 3));
      return out;
    }

    function saucer(segments, radius, top, bottom) {
      const pos = [];
      for (let i = 0; i < segments; i++) {
        const a0 = (2 * Math.PI * i) / segments, a1 = (2 * Math.PI * (i + 1)) / segments;
        const p0 = [radius * Math.cos(a0), radius * Math.sin(a0), 0];
        const p1 = [radius * Math.cos(a1), radius * Math.sin(a1), 0];
        pos.push(...p0, ...p1, 0, 0, top);
        pos.push(...p1, ...p0, 0, 0, -bottom);
      }
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
      g.computeVertexNormals();
      return g;
    }

    const zUp = (g) => g.rotateX(Math.PI / 2); // three's cylinders and cones stand along y
    const fortress = merged([
      new THREE.BoxGeometry(0.78, 0.78, 0.24).translate(0, 0, -0.24),
      zUp(new THREE.ConeGeometry(0.55, 0.48, 4)).rotateZ(Math.PI / 4).translate(0, 0, 0.12),
    ]);
    const GEOMETRY = {
      army: new THREE.BoxGeometry(0.56, 0.56, 0.56),
      hovercraft: saucer(24, 0.4, 0.2, 0.1),
      fortress,
    };
    const EDGES = {
      army: new THREE.EdgesGeometry(GEOMETRY.army, 30).attributes.position.array,
      hovercraft: new THREE.EdgesGeometry(saucer(10, 0.4, 0.2, 0.1), 1).attributes.position.array,
      fortress: new THREE.EdgesGeometry(fortress, 30).attributes.position.array,
    };
    const TRAIT_GEOMETRY = {};
    for (const kind of Object.keys(TOP)) {
      TRAIT_GEOMETRY["chief:" + kind] = new THREE.TorusGeometry(0.27, 0.055, 8, 20).translate(0, 0, TOP[kind] + 0.16);
      TRAIT_GEOMETRY["teleporter:" + kind] = merged([
        zUp(new THREE.CylinderGeometry(0.035, 0.035, 0.28, 8)).translate(0, 0, TOP[kind] + 0.14),
        new THREE.SphereGeometry(0.1, 12, 8).translate(0, 0, TOP[kind] + 0.32),
      ]);
    }
    const CYLINDER = new THREE.CylinderGeometry(1, 1, 1, 8); // unit, along y: along() stretches it
    const CONE = new THREE.ConeGeometry(1, 1, 14);
    const SHADOW = new THREE.CircleGeometry(0.2, 14);
    const CROSS = (() => { // the four body diagonals of a cube of side 1
      const r = 0.5, s = [];
      for (const [a, b] of [[[-r, -r, -r], [r, r, r]], [[-r, r, -r], [r, -r, r]], [[r, -r, -r], [-r, r, r]], [[r, r, -r], [-r, -r, r]]]) s.push([a, b]);
      return s;
    })();
    const BOX_EDGES = (() => {
      const r = 0.47, s = [];
      const c = [[-r, -r, -r], [r, -r, -r], [r, r, -r], [-r, r, -r], [-r, -r, r], [r, -r, r], [r, r, r], [-r, r, r]];
      for (const [i, j] of [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [1, 5], [2, 6], [3, 7]]) s.push([c[i], c[j]]);
      return s;
    })();

    const lambert = (opts) => new THREE.MeshLambertMaterial(Object.assign({ color: 0xffffff }, opts));
    const MATERIAL = {
      solid: lambert({}),
      ghost: lambert({ transparent: true, opacity: GHOST_OPACITY, depthWrite: false }),
      mark: lambert({ color: ink }),
      segment: lambert({}),
      faint: lambert({ transparent: true, opacity: 0.55, depthWrite: false }),
      casualty: lambert({ transparent: true, opacity: 0.22, depthWrite: false }),
      shadow: new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.45, depthWrite: false }),
    };

    // -- three.js scene -------------------------------------------------------------------------------

    const scene = new THREE.Scene();
    scene.add(new THREE.AmbientLight(0xffffff, 1.15));
    const headlight = new THREE.DirectionalLight(0xffffff, 1.25);
    const keylight = new THREE.DirectionalLight(0xffffff, 0.9);
    scene.add(headlight, headlight.target, keylight, keylight.target);
    let frameGroup = new THREE.Group(); // lattice or boards: changes with the geometry of the view
    let pieceGroup = new THREE.Group(); // pieces and events: change with the turn
    scene.add(frameGroup, pieceGroup);
    const perspective = new THREE.PerspectiveCamera(24, 1, 0.1, 1000);
    const ortho = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.1, 1000);
    for (const c of [perspective, ortho]) c.up.set(0, 0, 1);
    const orbit = { target: new THREE.Vector3(), radius: 50, azimuth: 0, elevation: 0.5, half: 10 };
    let camera = perspective;

    function disposeGroup(group) {
      group.traverse((o) => {
        if (o.isInstancedMesh) o.dispose();
        if (o.geometry && o.userData.own) o.geometry.dispose();
      });
    }

    function instanced(geometry, material, items) {
      // items: [{m: Matrix4, c: colour string}]
      const mesh = new THREE.InstancedMesh(geometry, material, items.length);
      const col = new THREE.Color();
      items.forEach((it, i) => {
        mesh.setMatrixAt(i, it.m);
        mesh.setColorAt(i, col.set(it.c));
      });
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
      return mesh;
    }

    const _q = new THREE.Quaternion(), _v = new THREE.Vector3(), _s = new THREE.Vector3(), _y = new THREE.Vector3(0, 1, 0);
    function at(p, scale) {
      return new THREE.Matrix4().compose(_v.set(p[0], p[1], p[2]), _q.identity(), _s.set(scale, scale, scale));
    }
    function along(a, b, radius) { // a unit cylinder stretched from a to b
      const d = new THREE.Vector3(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      const len = d.length();
      if (len < 1e-9) return null;
      _q.setFromUnitVectors(_y, d.clone().divideScalar(len));
      return new THREE.Matrix4().compose(
        _v.set((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2), _q, _s.set(radius, len, radius));
    }

    function lineSegments(points, colourValue, opacity) {
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
      const m = new THREE.LineBasicMaterial({ color: colourValue, transparent: opacity < 1, opacity });
      const line = new THREE.LineSegments(g, m);
      line.userData.own = true;
      return line;
    }

    function coloured(points, colours, opacity) { // line segments, a colour per vertex pair
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
      const rgb = [], c = new THREE.Color();
      for (const hex of colours) { c.set(hex); rgb.push(c.r, c.g, c.b, c.r, c.g, c.b); }
      g.setAttribute("color", new THREE.Float32BufferAttribute(rgb, 3));
      const line = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ vertexColors: true, transparent: opacity < 1, opacity }));
      line.userData.own = true;
      return line;
    }

    // -- HTML labels over the canvas --------------------------------------------------------------

    const labelBox = $("labels");
    let staticLabels = [], eventLabels = [];
    function label(text, point, cls) {
      const el = document.createElement("div");
      el.className = cls;
      el.textContent = text;
      labelBox.appendChild(el);
      return { el, p: new THREE.Vector3(point[0], point[1], point[2]) };
    }
    function clearLabels(list) { for (const l of list) l.el.remove(); return []; }
    function placeLabels() {
      const w = canvas.clientWidth, h = canvas.clientHeight;
      for (const l of staticLabels.concat(eventLabels)) {
        const v = l.p.clone().project(camera);
        const hidden = v.z > 1 || v.z < -1;
        l.el.style.display = hidden ? "none" : "";
        if (!hidden) {
          l.el.style.left = ((v.x + 1) / 2) * w + "px";
          l.el.style.top = ((1 - v.y) / 2) * h + "px";
        }
      }
    }

    // -- the frame: lattice (universe) or boards --------------------------------------------------

    let frameKey = "";
    function buildFrame(lay) {
      const key = JSON.stringify([S.mode, S.axis, shown(), S.layout]);
      if (key === frameKey) return false;
      frameKey = key;
      scene.remove(frameGroup);
      disposeGroup(frameGroup);
      frameGroup = new THREE.Group();
      scene.add(frameGroup);
      staticLabels = clearLabels(staticLabels);
      const [x0, x1, y0, y1, z0, z1] = lay.bounds;
      if (S.mode === "universe") {
        const grid = [];
        for (let i = 0; i <= M; i++) grid.push(x0 + i, y0, z0, x0 + i, y1, z0);
        for (let j = 0; j <= N; j++) grid.push(x0, y0 + j, z0, x1, y0 + j, z0);
        frameGroup.add(lineSegments(grid, D.tones.lattice, 1));
        const box = [];
        const c = [[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0], [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]];
        for (const [i, j] of [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [1, 5], [2, 6], [3, 7]]) box.push(...c[i], ...c[j]);
        for (let k = 0; k < P; k++) box.push(x0, y1, z0 + k + 0.5, x0 - 0.25, y1, z0 + k + 0.5);
        frameGroup.add(lineSegments(box, "#8C877D", 1));
        for (let k = 0; k < P; k++) staticLabels.push(label("z=" + k, [x0 - 0.9, y1, z0 + k + 0.5], "tick-label"));
        staticLabels.push(label("x 0…" + (M - 1), [(x0 + x1) / 2, y0 - 1.4, z0], "axis-label"));
        staticLabels.push(label("y 0…" + (N - 1), [x0 - 1.8, (y0 + y1) / 2, z0], "axis-label"));
        return true;
      }
      const { L, list, step } = lay;
      const [su, sv] = L.size;
      const pos = [], cols = [], outline = [];
      const light = new THREE.Color(D.tones.board_light), dark = new THREE.Color(D.tones.board_dark);
      list.forEach((s, k) => {
        const ox = k * step[0], oy = k * step[1], oz = k * step[2] - 0.5;
        for (let u = 0; u < su; u++) {
          for (let v = 0; v < sv; v++) {
            const a = [ox + u - 0.5, oy + v - 0.5], b = [ox + u + 0.5, oy + v + 0.5];
            pos.push(a[0], a[1], oz, b[0], a[1], oz, b[0], b[1], oz, a[0], a[1], oz, b[0], b[1], oz, a[0], b[1], oz);
            const c = (u + v) % 2 === 0 ? light : dark;
            for (let i = 0; i < 6; i++) cols.push(c.r, c.g, c.b);
          }
        }
        const lo = [ox - 0.5, oy - 0.5], hi = [ox + su - 0.5, oy + sv - 0.5];
        outline.push(lo[0], lo[1], oz, hi[0], lo[1], oz, hi[0], lo[1], oz, hi[0], hi[1], oz,
          hi[0], hi[1], oz, lo[0], hi[1], oz, lo[0], hi[1], oz, lo[0], lo[1], oz);
        staticLabels.push(label(S.axis + " = " + s, [ox + su / 2 - 0.5, oy + sv - 0.5 + 1.3, oz], "board-label"));
        const ticks = (n) => { const e = n <= 8 ? 1 : n <= 16 ? 3 : Math.ceil(n / 6); const out = []; for (let i = 0; i < n; i += e) out.push(i); if (out[out.length - 1] !== n - 1) out.push(n - 1); return out; };
        for (const i of ticks(su)) staticLabels.push(label(L.names[0] + i, [ox + i, oy - 1.1, oz], "tick-label"));
        if (k === 0 || S.layout === "stack") for (const j of ticks(sv)) staticLabels.push(label(L.names[1] + j, [ox - 1.5, oy + j, oz], "tick-label"));
      });
      const g = new THREE.BufferGeometry();
      g.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
      g.setAttribute("color", new THREE.Float32BufferAttribute(cols, 3));
      const cells = new THREE.Mesh(g, new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.DoubleSide }));
      cells.userData.own = true;
      frameGroup.add(cells, lineSegments(outline, "#8C877D", 1));
      return true;
    }

    // -- pieces and events of the turn -------------------------------------------------------------

    const drawn = { pieces: [], lines: 0, marks: 0, labels: 0 };

    function build(lay, progress) {
      scene.remove(pieceGroup);
      disposeGroup(pieceGroup);
      pieceGroup = new THREE.Group();
      scene.add(pieceGroup);
      eventLabels = clearLabels(eventLabels);
      const V = views[S.view];
      const sc = lay.scale;
      const now = V.pieces[S.turn];
      const before = progress < 1 && S.turn > 0 ? V.pieces[S.turn - 1] : null;
      const glyphs = []; // {id, row, p}
      const half = progress >= 0.5;
      for (const [id, row] of now) {
        const p = lay.place(row.slice(3, 6));
        const old = before ? before.get(id) : undefined;
        if (!before) { if (p) glyphs.push({ id, row, p }); continue; }
        if (old === undefined) { if (p && half) glyphs.push({ id, row, p }); continue; }
        const q = lay.place(old.slice(3, 6));
        const jump = Math.max(...[0, 1, 2].map((i) => Math.abs(row[3 + i] - old[3 + i]))) > 2;
        const shownRow = half ? row : [old[0], ...row.slice(1)];
        if (p && q && !jump) glyphs.push({ id, row: shownRow, p: q.map((v, i) => v + (p[i] - v) * progress) });
        else if (q && !half) glyphs.push({ id, row: shownRow, p: q });
        else if (p && half) glyphs.push({ id, row, p });
      }
      if (before && !half) {
        for (const [id, old] of before) {
          if (now.has(id)) continue;
          const q = lay.place(old.slice(3, 6));
          if (q) glyphs.push({ id, row: old, p: q });
        }
      }
      drawn.pieces = glyphs.map((g) => [g.id, ...g.row.slice(0, 6)]);

      const groups = {};
      const add = (key, item) => (groups[key] = groups[key] || []).push(item);
      const outline = [];
      const outlineColours = [];
      for (const g of glyphs) {
        const kind = TYPE[g.row[1]];
        const trait = TRAIT[g.row[2]];
        const ghost = g.row[6] === 1;
        const m = at(g.p, sc);
        add((ghost ? "ghost:" : "solid:") + kind, { m, c: colour(g.row[0]) });
        if (trait === "chief" || trait === "teleporter") add(trait + ":" + kind, { m, c: ink });
        if (kind !== "hovercraft" && glyphs.length <= DENSE) {
          const e = EDGES[kind];
          for (let i = 0; i < e.length; i += 3) outline.push(g.p[0] + e[i] * sc, g.p[1] + e[i + 1] * sc, g.p[2] + e[i + 2] * sc);
          outlineColours.push(ghost ? colour(g.row[0]) : ink);
        }
      }
      for (const [key, items] of Object.entries(groups)) {
        const [what, kind] = key.split(":");
        const geometry = what === "solid" || what === "ghost" ? GEOMETRY[kind] : TRAIT_GEOMETRY[key];
        const material = what === "ghost" ? MATERIAL.ghost : what === "solid" ? MATERIAL.solid : MATERIAL.mark;
        const mesh = instanced(geometry, material, items);
        if (what === "ghost") mesh.renderOrder = 2;
        pieceGroup.add(mesh);
      }
      if (outline.length) {
        // one colour per piece outline: repeat it for each of its segments
        const cols = [];
        let k = 0;
        for (const g of glyphs) {
          const kind = TYPE[g.row[1]];
          if (kind === "hovercraft" || glyphs.length > DENSE) continue;
          const n = EDGES[kind].length / 6;
          for (let i = 0; i < n; i++) cols.push(outlineColours[k]);
          k++;
        }
        pieceGroup.add(coloured(outline, cols, 0.9));
      }
      if (S.mode === "universe" && glyphs.length && glyphs.length <= DENSE) {
        const z0 = lay.bounds[4];
        const stalks = [], shadows = [];
        for (const g of glyphs) {
          if (g.p[2] - 0.3 > z0 + 0.01) stalks.push(g.p[0], g.p[1], g.p[2] - 0.3, g.p[0], g.p[1], z0);
          shadows.push({ m: at([g.p[0], g.p[1], z0 + 0.01], 1), c: colour(g.row[0]) });
        }
        if (stalks.length) pieceGroup.add(lineSegments(stalks, "#A59F94", 0.8));
        pieceGroup.add(instanced(SHADOW, MATERIAL.shadow, shadows));
      }
      drawn.lines = drawn.marks = drawn.labels = 0;
      if (S.events) events(lay, sc);
      if (hooks.drawn) hooks.drawn(lay, sc); // the live client's marks over the pieces
    }

    function events(lay, sc) {
      const d = D.turns[S.turn][S.view];
      const segs = [], faint = [], heads = [], casualties = {};
      const l = d.l || [];
      for (let i = 0; i < l.length; i += 8) {
        const kind = D.line_kinds[l[i]];
        const c = colour(l[i + 1]);
        const a = lay.place(l.slice(i + 2, i + 5)), b = lay.place(l.slice(i + 5, i + 8));
        if (!a || !b) continue;
        drawn.lines++;
        if (kind === "move") {
          const m = along(a, b, 0.035);
          if (m) faint.push({ m, c: ink });
        } else if (kind === "attack") {
          const dir = new THREE.Vector3(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
          const len = dir.length();
          if (len < 1e-9) continue;
          dir.divideScalar(len);
          const gap = 0.42 * sc, head = Math.min(0.34 * sc, len / 2);
          const tip = [b[0] - dir.x * gap, b[1] - dir.y * gap, b[2] - dir.z * gap];
          const neck = [tip[0] - dir.x * head, tip[1] - dir.y * head, tip[2] - dir.z * head];
          const m = along(a, neck, 0.05 * sc);
          if (m) segs.push({ m, c });
          _q.setFromUnitVectors(_y, dir);
          heads.push({
            m: new THREE.Matrix4().compose(
              _v.set((tip[0] + neck[0]) / 2, (tip[1] + neck[1]) / 2, (tip[2] + neck[2]) / 2), _q, _s.set(0.13 * sc, head, 0.13 * sc)),
            c,
          });
        } else if (kind === "teleport") {
          const A = new THREE.Vector3(...a), B = new THREE.Vector3(...b);
          const height = 1.0 + 0.35 * A.distanceTo(B);
          const C = A.clone().add(B).multiplyScalar(0.5).add(new THREE.Vector3(0, 0, 2 * height));
          const tube = new THREE.Mesh(new THREE.TubeGeometry(new THREE.QuadraticBezierCurve3(A, C, B), 32, 0.06, 6), lambert({ color: c }));
          tube.userData.own = true;
          pieceGroup.add(tube);
        }
      }
      const m = d.m || [];
      for (let i = 0; i < m.length; i += 6) {
        const kind = D.mark_kinds[m[i]];
        const c = colour(m[i + 1]);
        const p = lay.place(m.slice(i + 2, i + 5));
        if (!p) continue;
        drawn.marks++;
        if (kind === "destroyed" || kind === "crushed") {
          for (const [u, v] of CROSS) {
            const mm = along(u.map((x, j) => p[j] + x * sc), v.map((x, j) => p[j] + x * sc), 0.05 * sc);
            if (mm) segs.push({ m: mm, c });
          }
        } else if (kind === "converted") {
          for (const [u, v] of BOX_EDGES) {
            const mm = along(u.map((x, j) => p[j] + x * sc), v.map((x, j) => p[j] + x * sc), 0.03 * sc);
            if (mm) segs.push({ m: mm, c });
          }
        } else if (kind === "casualty" && m[i + 5] >= 0) {
          const type = TYPE[m[i + 5]];
          (casualties[type] = casualties[type] || []).push({ m: at(p, sc), c, p });
        }
      }
      if (segs.length) pieceGroup.add(instanced(CYLINDER, MATERIAL.segment, segs));
      if (faint.length) pieceGroup.add(instanced(CYLINDER, MATERIAL.faint, faint));
      if (heads.length) pieceGroup.add(instanced(CONE, MATERIAL.segment, heads));
      for (const [type, items] of Object.entries(casualties)) {
        const mesh = instanced(GEOMETRY[type], MATERIAL.casualty, items);
        mesh.renderOrder = 2;
        pieceGroup.add(mesh);
        const e = EDGES[type], pts = [], cols = [];
        for (const it of items) {
          for (let i = 0; i < e.length; i += 3) pts.push(it.p[0] + e[i] * sc, it.p[1] + e[i + 1] * sc, it.p[2] + e[i + 2] * sc);
          for (let i = 0; i < e.length / 6; i++) cols.push(it.c);
        }
        pieceGroup.add(coloured(pts, cols, 1));
      }
      for (const [z, y, x, text] of d.b || []) {
        const p = lay.place([z, y, x]);
        if (!p) continue;
        drawn.labels++;
        eventLabels.push(label(text, [p[0], p[1], p[2] + 0.95 * sc], "event-label"));
      }
    }

    // -- camera: orbit, framing --------------------------------------------------------------------

    function placeCamera() {
      const e = orbit.elevation, a = orbit.azimuth;
      const dir = new THREE.Vector3(Math.cos(e) * Math.sin(a), -Math.cos(e) * Math.cos(a), Math.sin(e));
      if (S.angle === "top" && Math.abs(e - Math.PI / 2) < 1e-6) dir.set(0, -1e-4, 1).normalize();
      camera.position.copy(orbit.target).addScaledVector(dir, orbit.radius);
      camera.up.set(0, 0, 1);
      camera.lookAt(orbit.target);
      const w = Math.max(canvas.clientWidth, 1), h = Math.max(canvas.clientHeight, 1);
      camera.near = orbit.radius * 0.02;
      camera.far = orbit.radius * 6;
      if (camera.isOrthographicCamera) {
        camera.top = orbit.half; camera.bottom = -orbit.half;
        camera.left = -orbit.half * (w / h); camera.right = orbit.half * (w / h);
      } else {
        camera.aspect = w / h;
      }
      camera.updateProjectionMatrix();
      camera.updateMatrixWorld();
      headlight.position.copy(camera.position);
      headlight.target.position.copy(orbit.target);
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      keylight.position.copy(camera.position).addScaledVector(right, -orbit.radius * 0.6).addScaledVector(up, orbit.radius * 0.75);
      keylight.target.position.copy(orbit.target);
    }

    function pan(dx, dy) { // in normalised device units
      const w = Math.max(canvas.clientWidth, 1), h = Math.max(canvas.clientHeight, 1);
      const halfH = camera.isOrthographicCamera ? orbit.half / camera.zoom
        : orbit.radius * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      orbit.target.addScaledVector(right, dx * halfH * (w / h)).addScaledVector(up, dy * halfH);
    }

    const ANGLES = ["oblique", "top", "front", "side"];
    function frame(lay) {
      camera = S.mode === "universe" ? perspective : ortho;
      const [x0, x1, y0, y1, z0, z1] = lay.bounds;
      const diag = Math.hypot(x1 - x0, y1 - y0, z1 - z0);
      const deg = THREE.MathUtils.degToRad;
      let az = -32, el = 28;
      if (S.angle === "top") { az = 0; el = 90; }
      else if (S.angle === "front") { az = 0; el = 7; }
      else if (S.angle === "side") { az = 90; el = 7; }
      else if (S.mode !== "universe" && S.layout === "row") { az = 0; el = 62; }
      else if (S.mode !== "universe") { az = -30; el = 30; }
      orbit.azimuth = deg(az);
      orbit.elevation = deg(el);
      orbit.target.set((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2);
      orbit.radius = 3 * diag + 10;
      orbit.half = 0.5 * diag;
      ortho.zoom = 1;
      const margin = 0.7;
      const corners = [];
      for (const x of [x0 - margin - (S.mode === "universe" ? 1.6 : 0.6), x1 + margin])
        for (const y of [y0 - margin, y1 + margin])
          for (const z of [z0, z1 + (S.mode === "universe" ? 0.8 : 0.6)]) corners.push(new THREE.Vector3(x, y, z));
      // the part of the canvas left free by the title and the event log
      const h = Math.max(canvas.clientHeight, 1);
      const top = 1 - (2 * ($("head").offsetHeight + 20)) / h;
      const bottom = -1 + (2 * Math.max(60, $("log").offsetHeight + 16)) / h;
      const area = { left: -0.96, right: 0.96, bottom: Math.min(bottom, 0), top: Math.max(top, 0.2) };
      for (let i = 0; i < 8; i++) {
        placeCamera();
        let [lo, hi] = extent(corners);
        const factor = Math.min((area.right - area.left) / (hi.x - lo.x), (area.top - area.bottom) / (hi.y - lo.y));
        if (camera.isOrthographicCamera) camera.zoom *= factor;
        else orbit.radius /= factor;
        placeCamera();
        [lo, hi] = extent(corners);
        const sx = (lo.x + hi.x) / 2 - (area.left + area.right) / 2;
        const sy = (lo.y + hi.y) / 2 - (area.top + area.bottom) / 2;
        pan(sx, sy);
        if (Math.abs(factor - 1) < 0.003 && Math.abs(sx) < 0.003 && Math.abs(sy) < 0.003) break;
      }
      placeCamera();
    }

    function extent(points) {
      const lo = new THREE.Vector2(Infinity, Infinity), hi = new THREE.Vector2(-Infinity, -Infinity);
      for (const p of points) {
        const v = p.clone().project(camera);
        lo.x = Math.min(lo.x, v.x); lo.y = Math.min(lo.y, v.y);
        hi.x = Math.max(hi.x, v.x); hi.y = Math.max(hi.y, v.y);
      }
      return [lo, hi];
    }

    // -- drawing -------------------------------------------------------------------------------------

    let pending = false, lay = layoutOf(), frameFor = "";
    function resize() {
      const w = canvas.clientWidth, h = canvas.clientHeight;
      if (canvas.width !== Math.round(w * renderer.getPixelRatio()) || canvas.height !== Math.round(h * renderer.getPixelRatio())) {
        renderer.setSize(w, h, false);
        return true;
      }
      return false;
    }
    function render() {
      pending = false;
      const resized = resize();
      if (resized && frameFor) frame(lay);
      placeCamera();
      renderer.render(scene, camera);
      placeLabels();
    }
    function request() {
      if (!pending) { pending = true; requestAnimationFrame(render); }
    }

    let glide = null; // {start, duration}
    function redraw(progress) {
      lay = layoutOf();
      const changed = buildFrame(lay);
      build(lay, progress === undefined ? 1 : progress);
      const key = JSON.stringify([S.mode, S.axis, shown(), S.layout, S.angle]);
      if (changed || key !== frameFor) { frameFor = key; frame(lay); }
      request();
    }

    function animate(time) {
      if (!glide) return;
      const t = Math.min(1, (time - glide.start) / glide.duration);
      build(lay, t);
      request();
      if (t < 1) requestAnimationFrame(animate);
      else { glide = null; drawn.gliding = false; }
    }

    // -- the page around the canvas -----------------------------------------------------------

    const slider = $("turn");
    slider.max = String(LAST);

    // -- the story: its turns marked on the timeline and listed in the legend, each a jump ------

    const STORY = D.story || []; // [{turn, kind, text}] in turn order (antipolix.story)
    const storyTurns = [...new Set(STORY.map((m) => m.turn))];

    function storyMarks() {
      const marks = $("marks"), list = $("story");
      if (!marks || !list) return; // a page without a timeline of its own (the live client)
      for (const m of STORY) {
        const jump = () => { play(false); setTurn(m.turn); };
        const b = document.createElement("button");
        b.type = "button";
        b.className = "mark " + m.kind;
        b.dataset.turn = String(m.turn);
        b.style.left = (LAST > 0 ? (100 * m.turn) / LAST : 0) + "%";
        b.title = "turn " + m.turn + ": " + m.text;
        b.setAttribute("aria-label", b.title);
        b.addEventListener("click", jump);
        marks.appendChild(b);
        const li = document.createElement("li");
        li.className = m.kind;
        const item = document.createElement("button");
        item.type = "button";
        item.dataset.turn = String(m.turn);
        const t = document.createElement("span");
        t.className = "turn";
        t.textContent = "turn " + m.turn;
        item.append(t, document.createTextNode(m.text));
        item.addEventListener("click", jump);
        li.appendChild(item);
        list.appendChild(li);
      }
      $("story").hidden = $("story-title").hidden = STORY.length === 0;
    }

    function storyJump(step) { // the next (step 1) or previous (-1) turn of the story
      const later = step > 0 ? storyTurns.filter((t) => t > S.turn) : storyTurns.filter((t) => t < S.turn);
      if (!later.length) return;
      play(false);
      setTurn(step > 0 ? later[0] : later[later.length - 1]);
    }

    function where() {
      const size = D.shape.join("×");
      if (S.mode === "universe") return "whole universe " + size + " (z up)";
      if (S.mode === "slice") return "board " + S.axis + " = " + S.slice + " of " + size;
      return "boards " + S.axis + " = " + S.boards.join(", ") + " of " + size;
    }

    function escapeHtml(s) {
      return s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" }[c]));
    }

    function updatePanels() {
      const V = views[S.view];
      const d = D.turns[S.turn][S.view];
      // a step may carry a name (n): the live page's last one, the end, is no turn played
      const played = LAST - (D.turns[LAST][S.view].n ? 1 : 0);
      const step = d.n || "turn " + S.turn + " of " + played;
      const title = d.t || "AntipoliX · " + step;
      $("title").textContent = title;
      $("subtitle").textContent = where() + " · " + seenAt(V, S.turn);
      slider.value = String(S.turn);
      $("turn-text").textContent = step;
      document.title = title;
      const list = $("players");
      list.textContent = "";
      for (const e of V.entries[S.turn]) {
        const li = document.createElement("li");
        if (!e.alive) li.className = "out";
        if (V.fog === e.player) li.className += " seer";
        const sw = document.createElement("span");
        sw.className = "swatch";
        sw.style.background = colour(e.player);
        li.append(sw, document.createTextNode(e.text));
        list.appendChild(li);
      }
      const log = $("log");
      const moments = STORY.filter((m) => m.turn === S.turn && m.kind !== "eliminated");
      const told = moments.map((m) => '\n<span class="moment">' + escapeHtml(m.text) + "</span>").join("");
      if (!S.events) log.innerHTML = told.slice(1);
      else if (S.turn === 0) log.textContent = "turn 0: the position after placement";
      else {
        const lines = d.g || [];
        log.innerHTML = "<b>" + escapeHtml(d.n || "turn " + S.turn) + ":</b>" + (lines.length ? "" : " no events seen") + told
          + lines.map((s) => "\n" + (s.includes("ELIMINATED") ? '<span class="out">' + escapeHtml(s) + "</span>" : escapeHtml(s))).join("");
      }
      $("play").classList.toggle("playing", S.playing);
      $("play").setAttribute("aria-label", S.playing ? "pause" : "play");
      $("mode").value = S.mode;
      $("axis").value = S.axis;
      $("layout").value = S.layout;
      $("fog").value = String(S.view);
      $("events").checked = S.events;
      $("axis").disabled = S.mode === "universe";
      $("layout").disabled = S.mode !== "boards";
      pickers();
      document.documentElement.dataset.turn = String(S.turn);
    }

    function pickers() {
      const box = $("pickers");
      const length = D.layouts[S.axis].length;
      const chosen = S.mode === "slice" ? [S.slice] : S.mode === "boards" ? S.boards : [];
      const key = JSON.stringify([S.mode, S.axis, chosen]);
      if (box.dataset.key === key) return;
      box.dataset.key = key;
      box.textContent = "";
      if (S.mode === "universe") return;
      box.append(document.createTextNode(S.mode === "slice" ? "board" : "boards"));
      chosen.forEach((b, i) => {
        const sel = document.createElement("select");
        sel.setAttribute("aria-label", (S.mode === "slice" ? "board" : "board " + (i + 1)) + " along " + S.axis);
        for (let s = 0; s < length; s++) sel.add(new Option(S.axis + "=" + s, String(s)));
        sel.value = String(b);
        sel.addEventListener("change", () => {
          if (S.mode === "slice") S.slice = Number(sel.value);
          else {
            const next = S.boards.slice();
            next[i] = Number(sel.value);
            S.boards = [...new Set(next)].sort((a, c) => a - c);
          }
          changed();
        });
        box.appendChild(sel);
      });
    }

    function changed(progress) {
      updatePanels();
      redraw(progress);
    }

    function setTurn(t, smooth) {
      const next = Math.min(Math.max(Math.round(t), 0), LAST);
      const step = next === S.turn + 1;
      S.turn = next;
      if (smooth && step) {
        glide = { start: performance.now(), duration: Math.min(350, 600 / S.speed) };
        drawn.gliding = true;
        changed(0);
        requestAnimationFrame(animate);
      } else {
        glide = null;
        drawn.gliding = false;
        changed();
      }
    }

    let timer = null;
    function play(on) {
      S.playing = on && S.turn < LAST;
      if (timer) { clearInterval(timer); timer = null; }
      if (S.playing) {
        if (S.turn >= LAST) S.turn = 0;
        timer = setInterval(() => {
          if (S.turn >= LAST) { play(false); return; }
          setTurn(S.turn + 1, true);
        }, 1000 / S.speed);
      }
      updatePanels();
    }

    function fitBoards(axis) {
      const length = D.layouts[axis].length;
      const count = Math.min(3, length);
      if (S.boards.length === count && S.boards.every((b) => b < length)) return S.boards;
      const first = Math.min(Math.max(S.boards[0] || 0, 0), length - count);
      return Array.from({ length: count }, (_, i) => first + i);
    }

    function moveBoards(delta) {
      const length = D.layouts[S.axis].length;
      if (S.mode === "slice") S.slice = Math.min(Math.max(S.slice + delta, 0), length - 1);
      else if (S.mode === "boards") {
        const b = S.boards;
        if (b[0] + delta >= 0 && b[b.length - 1] + delta < length) S.boards = b.map((x) => x + delta);
      }
    }

    // controls
    for (const [i, v] of views.entries()) $("fog").add(new Option(v.name, String(i)));
    $("fog").disabled = views.length < 2;
    slider.addEventListener("input", () => { const t = Number(slider.value); play(false); setTurn(t); });
    $("first").addEventListener("click", () => { play(false); setTurn(0); });
    $("prev").addEventListener("click", () => { play(false); setTurn(S.turn - 1); });
    $("next").addEventListener("click", () => { play(false); setTurn(S.turn + 1, true); });
    $("last").addEventListener("click", () => { play(false); setTurn(LAST); });
    $("play").addEventListener("click", () => play(!S.playing));
    $("speed").addEventListener("change", () => { S.speed = Number($("speed").value); if (S.playing) play(true); });
    $("mode").addEventListener("change", () => { S.mode = $("mode").value; changed(); });
    $("axis").addEventListener("change", () => {
      S.axis = $("axis").value;
      S.boards = fitBoards(S.axis);
      S.slice = Math.min(S.slice, D.layouts[S.axis].length - 1);
      changed();
    });
    $("layout").addEventListener("change", () => { S.layout = $("layout").value; changed(); });
    $("fog").addEventListener("change", () => { S.view = Number($("fog").value); changed(); });
    $("events").addEventListener("change", () => { S.events = $("events").checked; changed(); });
    $("frame").addEventListener("click", () => { frame(lay); request(); });

    document.addEventListener("keydown", (ev) => {
      const tag = (ev.target && ev.target.tagName) || "";
      if (["INPUT", "SELECT", "TEXTAREA"].includes(tag)) return; // their own keys
      if (tag === "BUTTON" && (ev.key === " " || ev.key === "Enter")) return; // presses the button
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const k = ev.key;
      let handled = true;
      if (k === " ") play(!S.playing);
      else if (k === "ArrowRight" || k === "n") { play(false); setTurn(S.turn + 1, true); }
      else if (k === "ArrowLeft" || k === "N") { play(false); setTurn(S.turn - 1); }
      else if (k === "Home") { play(false); setTurn(0); }
      else if (k === "End") { play(false); setTurn(LAST); }
      else if (k === "]") storyJump(1);
      else if (k === "[") storyJump(-1);
      else if (k === "v") { const m = ["universe", "boards", "slice"]; S.mode = m[(m.indexOf(S.mode) + 1) % 3]; changed(); }
      else if (k === "o" || k === "p") {
        S.axis = AXES[(AXES.indexOf(S.axis) + (k === "p" ? 1 : 2)) % 3];
        S.boards = fitBoards(S.axis);
        S.slice = Math.min(S.slice, D.layouts[S.axis].length - 1);
        changed();
      } else if (k === "u" || k === "j") { moveBoards(k === "u" ? 1 : -1); changed(); }
      else if (k === "l") { S.layout = S.layout === "row" ? "stack" : "row"; changed(); }
      else if (k === "f") { S.view = (S.view + 1) % views.length; changed(); }
      else if (k === "e") { S.events = !S.events; changed(); }
      else if (k === "a") { S.angle = ANGLES[(ANGLES.indexOf(S.angle) + 1) % ANGLES.length]; changed(); }
      else handled = false;
      if (handled) ev.preventDefault();
    });

    // pointer: drag rotates, right / shift drag pans, wheel and pinch zoom, double-click frames
    const pointers = new Map();
    let dragMode = null, pinch = 0;
    canvas.addEventListener("contextmenu", (ev) => ev.preventDefault());
    canvas.addEventListener("pointerdown", (ev) => {
      canvas.setPointerCapture(ev.pointerId);
      pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      dragMode = ev.button === 2 || ev.shiftKey ? "pan" : "rotate";
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
      }
      canvas.classList.add("dragging");
    });
    canvas.addEventListener("pointermove", (ev) => {
      const last = pointers.get(ev.pointerId);
      if (!last) return;
      const dx = ev.clientX - last[0], dy = ev.clientY - last[1];
      pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch > 0) zoom(pinch / dist);
        pinch = dist;
        return;
      }
      if (dragMode === "pan") {
        pan(-2 * dx / canvas.clientWidth, 2 * dy / canvas.clientHeight);
      } else {
        orbit.azimuth -= dx * 0.008;
        orbit.elevation = Math.min(Math.max(orbit.elevation + dy * 0.008, -1.55), 1.55);
      }
      request();
    });
    const release = (ev) => {
      pointers.delete(ev.pointerId);
      if (!pointers.size) { dragMode = null; canvas.classList.remove("dragging"); }
      pinch = 0;
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    function zoom(factor) {
      if (camera.isOrthographicCamera) camera.zoom = Math.min(Math.max(camera.zoom / factor, 0.05), 50);
      else orbit.radius = Math.min(Math.max(orbit.radius * factor, 2), 2000);
      request();
    }
    canvas.addEventListener("wheel", (ev) => { ev.preventDefault(); zoom(Math.exp(ev.deltaY * 0.0015)); }, { passive: false });
    canvas.addEventListener("dblclick", () => { frame(lay); request(); });
    window.addEventListener("resize", request);

    // the page's scripting interface
    window.apx = {
      state() {
        return {
          turn: S.turn, last: LAST, playing: S.playing, gliding: !!drawn.gliding,
          mode: S.mode, axis: S.axis, boards: S.boards.slice(), slice: S.slice, layout: S.layout,
          view: S.view, fog: views[S.view].fog, events: S.events,
          title: $("title").textContent, slider: Number(slider.value),
          pieces: drawn.pieces.map((p) => p.slice()), lines: drawn.lines, marks: drawn.marks, labels: drawn.labels,
          legend: views[S.view].entries[S.turn].map((e) => e.text),
          log: $("log").textContent,
          story: STORY.map((m) => ({ turn: m.turn, kind: m.kind, text: m.text })),
        };
      },
      setTurn: (t) => { play(false); setTurn(t); },
      frameNow: () => new Promise((resolve) => requestAnimationFrame(() => { render(); resolve(true); })),
      addTurn(row, replace) { // a live page's next turn (or, replace: its last turn again)
        if (replace) { D.turns.pop(); for (const V of views) { V.pieces.pop(); V.entries.pop(); } }
        D.turns.push(row); // one delta per view, as page_data writes them
        LAST = D.last_turn = D.turns.length - 1;
        fold(LAST);
        slider.max = String(LAST);
        play(false);
        setTurn(LAST, true);
      },
      scene3d: () => ({ THREE, scene, camera, canvas, lay, S, request, redraw: () => changed() }),
    };

    storyMarks();
    updatePanels();
    redraw();
    render();
    document.documentElement.dataset.ready = "1";
  }

  window.APX = { start(THREE, D, hooks) { try { start(THREE, D, hooks); } catch (e) { fail(e); } }, fail };
  if ($("apx-data")) boot().catch(fail);
})();
