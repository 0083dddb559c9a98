// The board drawn from the match's position (white's points 1-6 bottom right), in SVG.
// drawBoard(svg, match, opts) redraws it; highlightPlay(svg, steps) marks a play's steps.
"use strict";

const BOARD = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const X0 = 20, Y0 = 20, W = 1000, H = 720, BAR = 60, TRAY = 80;
  const PW = (W - BAR) / 12;
  const R = PW * 0.46;
  const TIP = H * 0.41;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // Column 0-11 from the left and top/bottom of a point in white's numbering.
  function place(n) {
    const bottom = n <= 12;
    const col = bottom ? 12 - n : n - 13;
    const x = X0 + col * PW + (col >= 6 ? BAR : 0);
    return { x, cx: x + PW / 2, bottom, edge: bottom ? Y0 + H : Y0, dir: bottom ? -1 : 1 };
  }

  // Where a step's end lies on the drawing: a point, the bar or the tray.
  function anchor(p, mover) {
    if (p === "bar") return { cx: X0 + 6 * PW + BAR / 2, cy: Y0 + H / 2 + (mover === "white" ? -60 : 60) };
    if (p === "off") return { cx: X0 + W + TRAY / 2, cy: mover === "white" ? Y0 + H - 80 : Y0 + 80 };
    const q = place(p);
    return { cx: q.cx, cy: q.edge + q.dir * TIP * 0.6 };
  }

  function checker(g, cx, cy, color, label) {
    el("circle", { cx, cy, r: R, class: "checker " + color }, g);
    el("circle", { cx, cy, r: R * 0.72, class: "checker-ring " + color }, g);
    if (label) {
      const t = el("text", { x: cx, y: cy + 9, class: "checker-count " + color }, g);
      t.textContent = label;
    }
  }

  function die(g, x, y, value, size) {
    el("rect", { x, y, width: size, height: size, rx: size * 0.15, class: "die" }, g);
    const spots = {
      1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
      4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
      6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
    }[value] || [];
    for (const [i, j] of spots) {
      el("circle", { cx: x + size * (0.22 + 0.28 * i), cy: y + size * (0.22 + 0.28 * j), r: size * 0.09, class: "pip" }, g);
    }
  }

  function drawBoard(svg, match, opts) {
    opts = opts || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }, marker);
    el("rect", { x: 0, y: 0, width: W + 2 * X0 + TRAY, height: H + 2 * Y0, class: "frame" }, svg);
    el("rect", { x: X0, y: Y0, width: W, height: H, class: "felt" }, svg);
    el("rect", { x: X0 + 6 * PW, y: Y0, width: BAR, height: H, class: "bar", id: "pt-bar" }, svg);
    el("rect", { x: X0 + W + 10, y: Y0, width: TRAY - 10, height: H, class: "tray" }, svg);
    const points = el("g", { id: "points" }, svg);
    for (let n = 1; n <= 24; n++) {
      const q = place(n);
      const tip = q.edge + q.dir * TIP;
      const poly = el("polygon", {
        points: `${q.x},${q.edge} ${q.x + PW},${q.edge} ${q.cx},${tip}`,
        class: "point " + (n % 2 ? "odd" : "even"), id: "pt-" + n, "data-point": n,
      }, points);
      poly.addEventListener("click", () => opts.onPoint && opts.onPoint(n));
      const label = el("text", { x: q.cx, y: q.bottom ? Y0 + H + 16 : Y0 - 5, class: "point-number" }, points);
      label.textContent = n;
    }
    const pos = match.position;
    const g = el("g", { id: "checkers" }, svg);
    for (const color of ["white", "black"]) {
      const side = pos[color];
      for (let p = 1; p <= 24; p++) {
        const count = side[p];
        if (!count) continue;
        const n = color === "white" ? p : 25 - p;
        const q = place(n);
        const shown = Math.min(count, 5);
        for (let k = 0; k < shown; k++) {
          const cy = q.edge + q.dir * (R + 2 + 2 * R * k);
          checker(g, q.cx, cy, color, k === shown - 1 && count > 5 ? String(count) : "");
        }
      }
      const bar = side[25];
      if (bar) {
        const cx = X0 + 6 * PW + BAR / 2;
        const cy = Y0 + H / 2 + (color === "white" ? -70 : 70);
        checker(g, cx, cy, color, bar > 1 ? String(bar) : "");
      }
      const off = side[0];
      for (let k = 0; k < off; k++) {
        const y = color === "white" ? Y0 + H - 14 - k * 15 : Y0 + 4 + k * 15;
        el("rect", { x: X0 + W + 16, y, width: TRAY - 22, height: 11, rx: 3, class: "off " + color }, g);
      }
    }
    // The cube: in the middle of the bar while centred, else on its owner's side.
    const cube = match.cube;
    const cx = X0 + W + 10 + (TRAY - 10) / 2 - 28;
    const cy = cube.owner === "white" ? Y0 + H - 330 : cube.owner === "black" ? Y0 + 270 : Y0 + H / 2 - 28;
    el("rect", { x: cx, y: cy, width: 56, height: 56, rx: 8, class: "cube" + (cube.offered ? " offered" : ""), id: "svg-cube" }, svg);
    const ct = el("text", { x: cx + 28, y: cy + 38, class: "cube-value" }, svg);
    ct.textContent = cube.offered ? String(cube.value * 2) : cube.owner ? String(cube.value) : "64";
    // The dice of the roll being played, in the mover's right-hand section.
    if (match.dice) {
      const right = match.turn === "white";
      const mid = right ? X0 + 9 * PW + BAR : X0 + 3 * PW;
      die(svg, mid - 70, Y0 + H / 2 - 30, match.dice[0], 60);
      die(svg, mid + 10, Y0 + H / 2 - 30, match.dice[1], 60);
    }
    el("g", { id: "highlight" }, svg);
  }

  function highlightPlay(svg, steps, mover) {
    const g = svg.querySelector("#highlight");
    if (!g) return;
    while (g.firstChild) g.removeChild(g.firstChild);
    svg.querySelectorAll(".hl-from, .hl-to").forEach((e) => e.classList.remove("hl-from", "hl-to"));
    for (const [from, to] of steps || []) {
      const a = anchor(from, mover), b = anchor(to, mover);
      const fromEl = svg.querySelector("#pt-" + from), toEl = svg.querySelector("#pt-" + to);
      if (fromEl) fromEl.classList.add("hl-from");
      if (toEl) toEl.classList.add("hl-to");
      el("line", { x1: a.cx, y1: a.cy, x2: b.cx, y2: b.cy, class: "hl-arrow", "marker-end": "url(#arrow)" }, g);
    }
  }

  return { drawBoard, highlightPlay };
})();
