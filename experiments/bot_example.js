// A bot for the AntipoliX match server in JavaScript (Node 22, or Node 20 with
// --experimental-websocket): nothing but the WebSocket every browser and Node have, to show that
// a bot in any language speaks the protocol (docs/protocol.md).
//
//   node experiments/bot_example.js 'http://127.0.0.1:8037/play/3f9c01ab#SECRET'
//
// It buys a chief and as many armies as the budget allows, then each turn moves the piece
// nearest an enemy one step toward it (or passes), and prints the result.
"use strict";

const link = new URL(process.argv[2]);
const game = link.pathname.split("/").pop();
const token = link.hash.slice(1);
const ws = new WebSocket(`ws://${link.host}/ws`);
const send = (frame) => ws.send(JSON.stringify(frame));
const dist = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
let me = null;

ws.onopen = () => send({ type: "hello", protocol: 1, game, token });
ws.onmessage = (event) => {
  const frame = JSON.parse(event.data);
  if (frame.type === "welcome") {
    me = frame;
    if (frame.phase === "armies" && frame.army === null) {
      const items = ["army+chief"];
      let spent = frame.costs["army+chief"];
      while (spent + frame.costs.army <= frame.budget) { items.push("army"); spent += frame.costs.army; }
      send({ type: "army", items });
    }
  } else if (frame.type === "observation" && frame.turn !== null) {
    const obs = frame.observation;
    const mine = obs.pieces.filter((p) => p.owner === me.seat && me.rules[p.type].move > 0);
    const enemies = obs.pieces.filter((p) => p.owner !== me.seat);
    const taken = new Set(obs.pieces.map((p) => p.cell.join()));
    let order = { kind: "Pass" };
    let best = Infinity;
    for (const p of mine) {
      for (const e of enemies) {
        const step = p.cell.map((v, i) => v + Math.sign(e.cell[i] - v));
        if (dist(step, e.cell) < dist(p.cell, e.cell) && dist(step, e.cell) < best && !taken.has(step.join())) {
          best = dist(step, e.cell);
          order = { kind: "Move", piece: p.id, cell: step };
        }
      }
    }
    send({ type: "order", turn: frame.turn, order });
  } else if (frame.type === "result") {
    const r = frame.result;
    console.log(`game over: ${r.why}, winner ${r.winner}, ${r.turns} turns`);
    ws.close();
  } else if (frame.type === "error") {
    console.error(`server says: ${frame.code}: ${frame.message}`);
  }
};
