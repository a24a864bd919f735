// Part 8: the projector's zoom. Where the whole matrix would draw a cell under ZOOM_PX pixels
// (40 where messages are arrows in the grid, 30 for the wave), projector mode shows a window of
// the grid at that size instead: the window follows the step (a fill step's cells with the cells
// they read and those their messages reach; the walk's cursor), the margins' indices, bytes and
// diagonal numbers move to its edges at a fixed size on the screen, a white frame hides the cells
// outside it, a wave's lanes stand under it, and an inset in the corner between the indices shows
// where the window is in the whole matrix. Without the mode, where the matrix fits, and on a
// bands page without values (its lesson is its bands and batches), the picture is whole.
const ZOOM_PX = wave ? 30 : 40;
const wholeBox = svg.getAttribute('viewBox');
const [, , wholeW, wholeH] = wholeBox.split(/\s+/).map(Number);
// The margins' texts in the zoom: their sizes on the screen.
const Z = { index: 14, byte: 18, diagonal: 14, band: 16, gap: 6, tick: 5 };
// The least width of the left margin, where the inset stands above the rows' indices.
const INSET_PX = 64;
// A hop's label under the window during the walk, on the screen.
const HOP_ZOOMED_PX = 15;
const hasBytes = svg.querySelector('.col-byte') !== null;
const hasDiagonals = svg.querySelector('.diagonal-label') !== null;
const lanesGroup = svg.querySelector('.lanes');
const laneBox = lanesGroup ? lanesGroup.getBBox() : null;
const laneTextPx = lanesGroup ? Math.max(...Array.from(lanesGroup.querySelectorAll('text')).map((e) => parseFloat(e.getAttribute('font-size')) || 16), 1) : 0;
// The margins above the cells' marks, over a frame that is white outside the window.
const zoomFrame = document.createElementNS(NS, 'path');
zoomFrame.setAttribute('class', 'zoom-frame');
zoomFrame.setAttribute('fill', '#ffffff');
zoomFrame.setAttribute('fill-rule', 'evenodd');
zoomFrame.setAttribute('visibility', 'hidden');
svg.appendChild(zoomFrame);
['.axes', '.diagonal-labels', '.lanes', '.hop-label'].forEach((sel) => { const g = svg.querySelector(sel); if (g) svg.appendChild(g); });
// Each zoomed text's own place and size, to return to.
const zoomTexts = Array.from(svg.querySelectorAll('.col-index, .col-byte, .row-index, .row-byte, .diagonal-label, .diagonal-tick, .band-label, .batch-label, .axis-title'));
zoomTexts.forEach((e) => {
  ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'font-size'].forEach((a) => { if (e.hasAttribute(a)) e.dataset['o' + a.replace('-', '')] = e.getAttribute(a); });
});
const restore = (e) => ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'font-size'].forEach((a) => {
  const o = e.dataset['o' + a.replace('-', '')];
  if (o !== undefined) e.setAttribute(a, o);
});
// A wave step's front as a box of rows and columns, first to last (see below).
const frontBoxes = perUnit().map(() => null);
function grow(box, i, j) {
  if (!box) return { r0: i, r1: i, c0: j, c1: j };
  box.r0 = Math.min(box.r0, i); box.r1 = Math.max(box.r1, i);
  box.c0 = Math.min(box.c0, j); box.c1 = Math.max(box.c1, j);
  return box;
}
// A wave step's front: the points where its diagonals' slides ended, each the corner after
// cell (row - 1, row + k - 1).
svg.querySelectorAll('.front .point').forEach((e) => {
  const u = num(e, 'unit');
  const i = num(e, 'row') - 1;
  const j = i + num(e, 'k');
  if (u < D) frontBoxes[u] = grow(grow(frontBoxes[u], i, j), i + 1, j + 1);
});
// A unit's cells (a wave step's front) as a box of rows and columns, first to last.
function unitBox(u) {
  if (wave) return frontBoxes[u];
  if (bands) {
    let box = null;
    for (let k = 0; k < active; k++) {
      const b = u - k;
      if (b < 0 || b >= bands.batches) continue;
      const [r0, r1] = batchRows(b);
      box = grow(grow(box, r0, bands.cols[k][0]), r1 - 1, bands.cols[k][1] - 1);
    }
    return box;
  }
  const a = firstRow(u);
  const b = a + diagLen(u) - 1;
  return { r0: a, r1: b, c0: u - b, c1: u - a };
}
// What step s teaches, as a box of cells (with the cells it reads and those its messages reach),
// its units, and whether what it has read lies before it (up and left: the fill) or around it
// (the walk); null where nothing is followed (the end).
function focusOf(s) {
  const st = stepOf(s);
  if (st.phase === 'fill') {
    let box = null;
    for (let u = st.lo; u < st.hi; u++) {
      const b = unitBox(u);
      if (b) box = grow(grow(box, b.r0, b.c0), b.r1, b.c1);
    }
    return box && { r0: box.r0 - 1, r1: box.r1 + 1, c0: box.c0 - 1, c1: box.c1 + 1, lo: st.lo, hi: st.hi, behind: true };
  }
  if (st.phase === 'walk' && walk.length > 0) {
    const [i, j] = walk[Math.min(walk.length - 1, Math.max(0, st.shown - 1))];
    return { r0: i - 1, r1: i + 1, c0: j - 1, c1: j + 1, lo: 0, hi: 0, behind: false };
  }
  return null;
}
// The columns the focus takes in rows a..b (an anti-diagonal's part of them, a wave step's front
// or a stage's bands there), with one column around.
function focusCols(f, a, b) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let u = f.lo; u < f.hi; u++) {
    if (wave) {
      const box = frontBoxes[u];
      if (box && box.r1 >= a && box.r0 <= b) { lo = Math.min(lo, box.c0); hi = Math.max(hi, box.c1); }
    } else if (bands) {
      for (let k = 0; k < active; k++) {
        const t = u - k;
        if (t < 0 || t >= bands.batches) continue;
        const [r0, r1] = batchRows(t);
        if (r1 - 1 >= a && r0 <= b) { lo = Math.min(lo, bands.cols[k][0]); hi = Math.max(hi, bands.cols[k][1] - 1); }
      }
    } else {
      const top = Math.max(a, firstRow(u));
      const bottom = Math.min(b, firstRow(u) + diagLen(u) - 1);
      if (top <= bottom) { lo = Math.min(lo, u - bottom); hi = Math.max(hi, u - top); }
    }
  }
  return lo <= hi ? [lo - 1, hi + 1] : [f.c0, f.c1];
}
// Where a window of `size` lines starts on `count` lines to show lines lo..hi: all of them if
// they fit, with the room left before them (what they read) when `behind`; else their middle,
// a quarter of the window back, but never past their first line.
function windowStart(lo, hi, size, count, behind) {
  let start;
  if (hi - lo + 1 <= size) start = behind ? hi - size + 1 : Math.round((lo + hi - size + 1) / 2);
  else {
    // Never so far back that the window shows less of them than it has room for.
    start = Math.round((lo + hi) / 2 - (behind ? size / 4 : 0) - (size - 1) / 2);
    start = Math.max(lo, Math.min(hi - size + 1, start));
  }
  return Math.max(0, Math.min(count - size, start));
}
let win = null;
let lastFocus = null;
// The teacher's own look around: Shift and an arrow key move the window a quarter of its size
// (rows, columns), until the step changes.
const pan = { r: 0, c: 0 };
function panBy(dr, dc) {
  if (!win) return false;
  pan.r += dr * Math.max(1, Math.floor(win.R / 4));
  pan.c += dc * Math.max(1, Math.floor(win.C / 4));
  fit();
  return true;
}
// The margins of the zoom on the screen, in pixels.
function zoomMargins(hopRoom) {
  const digits = String(Math.max(m, 1) - 1).length;
  const indexW = bands ? 0 : digits * Z.index * 0.6;
  const diagonalW = hasDiagonals ? Z.tick + 2 + ('d=' + (D - 1)).length * Z.diagonal * 0.6 : 0;
  return {
    top: Z.gap + (bands ? Z.band + 4 : Z.index + 4) + (hasBytes ? Z.byte + 4 : 0) + (hasDiagonals ? Z.diagonal + Z.tick + 2 : 0),
    left: Math.max(INSET_PX, Z.gap + indexW + (hasBytes ? Z.byte + 4 : 0) + 4),
    right: Math.max(Z.gap, diagonalW + Z.gap),
    bottom: Z.gap + (hopRoom ? 1.5 * HOP_ZOOMED_PX + 6 : 0),
  };
}
// The window for step s (rows r0.., columns c0..; R by C cells), or null: the whole picture.
function zoomWindow(s) {
  // A bands page without values teaches its bands and batches: whole.
  if (!projector || blocksDetail || m === 0 || n === 0 || (bands && valueTexts.length === 0)) return null;
  const box = svg.getBoundingClientRect();
  if (box.width < 50 || box.height < 50) return null;
  if (cellW * Math.min(box.width / wholeW, box.height / wholeH) >= ZOOM_PX - 0.01) return null;
  // The walk's hops are labelled under the window (a diagonal page's).
  const mg = zoomMargins(!bands && !wave && data.hops.length > 0 && stepOf(s).phase === 'walk');
  const C = Math.max(1, Math.min(n, Math.floor((box.width - mg.left - mg.right) / ZOOM_PX)));
  // A wave's lanes under the window while the fill plays, as wide as it, their text at least
  // 13 pixels.
  const lanes = laneBox && stepOf(s).phase === 'fill';
  const laneHigh = lanes ? laneBox.height * Math.max((C * ZOOM_PX) / laneBox.width, 13 / laneTextPx) + Z.gap : 0;
  const R = Math.max(1, Math.min(m, Math.floor((box.height - mg.top - mg.bottom - laneHigh) / (ZOOM_PX * cellH / cellW))));
  const f = focusOf(s) || lastFocus || { r0: 0, r1: 0, c0: 0, c1: 0, lo: 0, hi: 0, behind: true };
  lastFocus = f;
  const followed = windowStart(f.r0, f.r1, R, m, f.behind);
  const [a, b] = f.hi > f.lo ? focusCols(f, followed, followed + R - 1) : [f.c0, f.c1];
  const along = windowStart(a, b, C, n, f.behind);
  // Moved by the teacher, within the matrix (a move past its edge is not kept).
  const r0 = Math.max(0, Math.min(m - R, followed + pan.r));
  const c0 = Math.max(0, Math.min(n - C, along + pan.c));
  [pan.r, pan.c] = [r0 - followed, c0 - along];
  return { r0, c0, R, C, mg, lanes, laneHigh, w: box.width, h: box.height };
}
// Two windows alike (null: the whole picture).
const sameWindow = (a, b) => (a === null && b === null) ||
  (a !== null && b !== null && a.r0 === b.r0 && a.c0 === b.c0 && a.R === b.R && a.C === b.C && a.lanes === b.lanes && a.w === b.w && a.h === b.h);
// Whether step s shows another window than the one shown.
const zoomMoves = (s) => projector && !sameWindow(zoomWindow(s), win);
// Shows step s's window (or the whole picture): the view box, the frame, the margins' texts at
// its edges. Returns whether the picture is zoomed.
function zoom(s) {
  const w = zoomWindow(s);
  if (sameWindow(w, win)) return win !== null;
  win = w;
  document.body.classList.toggle('zoomed', w !== null);
  if (!w) {
    svg.setAttribute('viewBox', wholeBox);
    zoomFrame.setAttribute('visibility', 'hidden');
    zoomTexts.forEach((e) => { restore(e); e.classList.remove('zoom-off'); });
    if (lanesGroup) lanesGroup.removeAttribute('transform');
    drawInset();
    return false;
  }
  const { r0, c0, R, C, mg, lanes, laneHigh } = w;
  const x0 = cellX(c0);
  const x1 = cellX(c0 + C - 1) + cellW;
  const y0 = cellY(r0);
  const y1 = cellY(r0 + R);
  // The scale the window is drawn at, and the picture's units per screen pixel.
  const sc = Math.min((w.w - mg.left - mg.right) / (x1 - x0), (w.h - mg.top - mg.bottom - laneHigh) / (y1 - y0));
  const u = 1 / sc;
  const laneK = lanes ? Math.max((x1 - x0) / laneBox.width, 13 / (laneTextPx * sc)) : 0;
  const vx = x0 - mg.left * u;
  const vy = y0 - mg.top * u;
  const vw = x1 - x0 + (mg.left + mg.right) * u;
  const vh = y1 - y0 + (mg.top + mg.bottom) * u + (lanes ? laneBox.height * laneK + Z.gap * u : 0);
  svg.setAttribute('viewBox', [vx, vy, vw, vh].map((v) => v.toFixed(2)).join(' '));
  // White far beyond the view box: the picture may show more than it where the aspects differ.
  const far = 10 * (wholeW + wholeH);
  zoomFrame.setAttribute('d', 'M' + -far + ' ' + -far + 'H' + far + 'V' + far + 'H' + -far + 'z' +
    'M' + x0 + ' ' + y0 + 'V' + y1 + 'H' + x1 + 'V' + y0 + 'z');
  zoomFrame.setAttribute('visibility', 'visible');
  const inRows = (i) => i >= r0 && i < r0 + R;
  const inCols = (j) => j >= c0 && j < c0 + C;
  const set = (e, attrs) => Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, typeof v === 'number' ? v.toFixed(2) : v));
  // Upwards from the window's top: the diagonals' numbers, the bytes, the indices (or bands).
  const diagonalY = y0;
  const byteY = y0 - ((hasDiagonals ? Z.diagonal + Z.tick + 2 : 0) + 2 + Z.byte / 2) * u;
  const indexY = (hasBytes ? byteY - (Z.byte / 2 + 4) * u : y0 - ((hasDiagonals ? Z.diagonal + Z.tick + 2 : 0) + 2) * u) - (Z.index / 2 + 2) * u;
  const byteX = x0 - (4 + Z.gap / 2) * u;
  const indexX = (hasBytes ? byteX - (Z.byte + 4) * u : byteX);
  zoomTexts.forEach((e) => {
    const c = e.getAttribute('class').split(' ')[0];
    let off = false;
    if (c === 'col-index' || c === 'col-byte') {
      off = !inCols(num(e, 'j'));
      const px = c === 'col-index' ? Z.index : Z.byte;
      // A text without a central baseline stands on its y.
      const down = e.getAttribute('dominant-baseline') === 'central' ? 0 : 0.35 * px * u;
      set(e, { y: (c === 'col-index' ? indexY : byteY) + down, 'font-size': px * u });
    } else if (c === 'row-index' || c === 'row-byte') {
      off = !inRows(num(e, 'i'));
      set(e, { x: c === 'row-index' ? indexX : byteX, 'font-size': (c === 'row-index' ? Z.index : Z.byte) * u });
    } else if (c === 'diagonal-label' || c === 'diagonal-tick') {
      // Where the diagonal leaves the window at its top-right end.
      const d = num(e, 'd');
      const i = Math.max(r0, d - (c0 + C - 1));
      const j = d - i;
      off = !(inRows(i) && inCols(j));
      const cx = cellX(j) + cellW;
      const cy = cellY(i);
      const t = Z.tick * u;
      if (c === 'diagonal-tick') set(e, { x1: cx, y1: cy, x2: cx + t, y2: cy - t });
      else set(e, { x: cx + t + u, y: cy - t + u, 'font-size': Z.diagonal * u });
    } else if (c === 'band-label') {
      // Over the band's columns in the window.
      const [a, b] = bands.cols[num(e, 'rank')];
      const lo = Math.max(a, c0);
      const hi = Math.min(b, c0 + C) - 1;
      off = lo > hi;
      if (!off) set(e, { x: (cellX(lo) + cellX(hi) + cellW) / 2, y: (hasBytes ? byteY - (Z.byte / 2 + 4) * u : diagonalY - 4 * u), 'font-size': Z.band * u });
    } else {
      // The axes' titles and the batches' labels: the inset and the panel say them.
      off = true;
    }
    e.classList.toggle('zoom-off', off);
  });
  if (lanes) {
    const ty = y1 + Z.gap * u;
    lanesGroup.setAttribute('transform', 'translate(' + (x0 - laneK * laneBox.x) + ' ' + (ty - laneK * laneBox.y) + ') scale(' + laneK + ')');
  } else if (lanesGroup) lanesGroup.removeAttribute('transform');
  // The inset in the corner between the indices.
  corner = [vx, vy, x0 - 4 * u, y0 - 4 * u];
  drawInset();
  return true;
}

// ---- The inset: the whole matrix, a pixel or more a cell, its computed cells in their owners'
// colours and the window framed.
const inset = $('overview');
const rankColours = Array.from({ length: Math.min(P, data.rank_colours) }, (_, k) => getComputedStyle(document.body).getPropertyValue('--rank-' + k).trim() || '#999999');
let corner = null;
function drawInset() {
  if (!inset) return;
  // A window of the whole matrix needs no inset.
  inset.hidden = win === null || (win.R >= m && win.C >= n);
  if (inset.hidden) return;
  // The corner on the screen, relative to the figure, and the inset fitted into it.
  const c = svg.getScreenCTM();
  const f = $('figure').getBoundingClientRect();
  const a = new DOMPoint(corner[0], corner[1]).matrixTransform(c);
  const b = new DOMPoint(corner[2], corner[3]).matrixTransform(c);
  const fitIn = Math.min((b.x - a.x) / (n + 4), (b.y - a.y) / (m + 4));
  inset.style.left = (a.x - f.left) + 'px';
  inset.style.top = (a.y - f.top) + 'px';
  inset.style.width = Math.floor((n + 4) * fitIn) + 'px';
  inset.style.height = Math.floor((m + 4) * fitIn) + 'px';
  const k = Math.max(1, Math.ceil(fitIn));
  inset.width = (n + 4) * k;
  inset.height = (m + 4) * k;
  const g = inset.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, inset.width, inset.height);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const o = owner(i, j);
      const done = unitOfCell(i, j) < doneHi;
      g.fillStyle = done && o >= 0 ? rankColours[o % rankColours.length] : o < 0 ? '#ffffff' : '#e4e4e4';
      g.fillRect((2 + j) * k, (2 + i) * k, k, k);
    }
  }
  g.strokeStyle = '#1f4fd8';
  g.lineWidth = Math.max(1, k);
  g.strokeRect((2 + win.c0) * k - k / 2, (2 + win.r0) * k - k / 2, (win.C + 1) * k, (win.R + 1) * k);
  inset.setAttribute('aria-label', 'the window: rows ' + win.r0 + '\u2013' + (win.r0 + win.R - 1) + ', columns ' + win.c0 + '\u2013' + (win.c0 + win.C - 1) + ' of ' + m + ' \u00D7 ' + n);
  inset.title = inset.getAttribute('aria-label');
}
