// Part 9: the player. Steps go forward and back by buttons, slider and keys (which work
// whatever has focus, but in a text field); play pauses between the fill and the walk; the
// address follows the step (`#step=N`, N as the label counts) and the modes (`#projector`,
// `#contrast`), and they follow the address while the page is open, so a link opens where it
// was sent from. Tests drive the page through `window.lcsPage`.
const slider = $('slider');
const label = $('step-label');
slider.max = String(S - 1);
let current = -1;
let selected = null;
// The cell a fill step shows in the panel: one of its unit with an input from another rank (a
// value that came by message), else its first.
function cellOfStep(u) {
  if (wave) return waveCellOfStep(u);
  const cells = unitCellList(u);
  const fed = cells.find(([i, j]) => (j > 0 && owner(i, j - 1) !== owner(i, j)) || (i > 0 && owner(i - 1, j) !== owner(i, j)));
  return fed || cells[0] || [null, null];
}
function go(s) {
  s = Math.max(0, Math.min(S - 1, Math.round(Number(s) || 0)));
  // A new step: the projector's window follows it again.
  if (s !== current) [pan.r, pan.c] = [0, 0];
  const st = stepOf(s);
  if (st.phase === 'fill') {
    setDone(st.hi);
    setLit(st.lo, st.hi);
    setWalk(0);
    showHopLabel([]);
    fillTexts(st);
    inspect(...(selected || (solved ? cellOfStep(st.lo) : [null, null])));
  } else {
    setDone(D);
    setLit(0, 0);
    setWalk(st.phase === 'walk' ? st.shown : walk.length);
    if (st.phase === 'walk') walkTexts(st);
    else if (st.phase === 'end') { endTexts(); inspect(null); }
    else {
      $('phase').textContent = m === 0 ? 'An empty matrix: nothing to compute' : 'The whole schedule';
      $('what').textContent = '';
      $('formula-text').textContent = '';
    }
  }
  const inWalk = st.phase === 'walk' || st.phase === 'end';
  $('found').hidden = !solved || !inWalk;
  if (solved && inWalk) {
    const k = st.phase === 'walk' ? st.shown : walk.length;
    $('found-so-far').textContent = edit ? cigarSoFar(k) : showBytes(found(k));
  }
  $('final').hidden = st.phase !== 'end';
  const c = counts[s];
  const before = s > 0 ? counts[s - 1] : null;
  for (let k = 0; k < P; k++) {
    const cells = counterCells[k].children;
    cells[1].textContent = c.cells[k];
    cells[2].textContent = c.sent[k];
    cells[3].textContent = c.received[k];
    const changed = before && (before.sent[k] !== c.sent[k] || before.received[k] !== c.received[k]);
    counterCells[k].classList.toggle('changed', !!changed);
  }
  slider.value = String(s);
  label.textContent = 'step ' + (s + 1) + ' of ' + S + ' \u00B7 ' +
    (st.phase === 'fill' ? (bands || wave ? 's = ' : 'd = ') + (st.hi - st.lo === 1 ? st.lo : st.lo + '\u2013' + (st.hi - 1))
      : st.phase === 'walk' ? 'walk ' + st.shown + '/' + walk.length : st.phase === 'end' ? 'end' : '');
  current = s;
  // The projector's window follows the step; the inset shows what is computed.
  if (zoomMoves(s)) fit();
  else drawInset();
  ask(s);
  // The address names the step as the label does.
  const h = new URLSearchParams(location.hash.slice(1));
  h.delete('hop');
  h.delete('d');
  h.delete('traceback');
  h.set('step', String(s + 1));
  writeAddress(h);
}

// ---- Play, with a pause between the fill and the walk.
let timer = null;
const playButton = $('play');
const interval = () => Number($('speed').value);
// How long to wait before the step after s: longer where the fill ends and the walk begins.
const delayAfter = (s) => (s + 1 === F && W > 0 ? 4 * interval() : interval());
function stop() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  playButton.textContent = '\u25B6 play';
}
function schedule() {
  timer = setTimeout(() => {
    if (current >= S - 1) { stop(); return; }
    go(current + 1);
    if (current + 1 === F && W > 0) $('what').textContent += ' The fill is over: the traceback starts after a pause.';
    schedule();
  }, delayAfter(current));
}
function play() {
  if (current >= S - 1) go(0);
  stop();
  playButton.textContent = '\u275A\u275A pause';
  schedule();
}
const togglePlay = () => (timer === null ? play() : stop());
const step = (by) => { stop(); go(current + by); };
const toTraceback = () => { stop(); go(F < S ? F : S - 1); };
const setContrast = (on) => {
  document.body.classList.toggle('hc', on);
  $('contrast').setAttribute('aria-pressed', String(on));
  markAddress('contrast', on);
};
$('projector').addEventListener('click', () => setProjector(!projector));
$('panel-button').addEventListener('click', () => setPanel(document.body.classList.contains('folded')));
const setIntro = (on) => {
  $('intro').hidden = !on;
  $('intro-button').setAttribute('aria-expanded', String(on));
  if (on) $('intro').scrollIntoView({ block: 'nearest' });
};
$('first').addEventListener('click', () => { stop(); go(0); });
$('last').addEventListener('click', () => { stop(); go(S - 1); });
$('back').addEventListener('click', () => step(-1));
$('forward').addEventListener('click', () => step(1));
if ($('traceback')) $('traceback').addEventListener('click', toTraceback);
playButton.addEventListener('click', togglePlay);
$('speed').addEventListener('change', () => { $('speed').blur(); if (timer !== null) play(); });
$('contrast').addEventListener('click', () => setContrast(!document.body.classList.contains('hc')));
$('intro-button').addEventListener('click', () => setIntro($('intro').hidden));
$('quiz-button').addEventListener('click', () => setQuiz(!quizOn));
slider.addEventListener('input', () => { stop(); go(slider.value); });
document.querySelectorAll('#controls button').forEach((b) => b.addEventListener('click', () => b.blur()));
const typing = (t) => t && (t.isContentEditable || t.tagName === 'TEXTAREA' ||
  (t.tagName === 'INPUT' && !['range', 'button', 'checkbox', 'radio'].includes(t.type)));
window.addEventListener('keydown', (e) => {
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  const move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (e.shiftKey && move && panBy(...move)) {
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  const keys = {
    ArrowRight: () => step(1), ArrowLeft: () => step(-1), ' ': togglePlay,
    Home: () => { stop(); go(0); }, End: () => { stop(); go(S - 1); },
    t: toTraceback, T: toTraceback, c: () => $('contrast').click(), q: () => setQuiz(!quizOn), '?': () => setIntro($('intro').hidden),
    p: () => setProjector(!projector), s: () => setPanel(document.body.classList.contains('folded')),
  };
  const act = keys[e.key];
  if (!act) return;
  e.preventDefault();
  e.stopPropagation();
  if (e.target && e.target.blur && e.target !== document.body) e.target.blur();
  act();
}, true);
window.addEventListener('keyup', (e) => { if (e.key === ' ' && !typing(e.target)) e.preventDefault(); }, true);
window.addEventListener('hashchange', () => {
  const h = new URLSearchParams(location.hash.slice(1));
  // The modes follow the address while the page is open, as when it opens.
  if (h.has('projector') !== projector) setProjector(h.has('projector'));
  if (h.has('contrast') !== document.body.classList.contains('hc')) setContrast(h.has('contrast'));
  const s = stepFrom(h);
  if (s !== null && s !== current) { stop(); go(s); }
});

// ---- Hovering a cell: its numbers in a tooltip, and in the panel; a click keeps it there. The
// cell under the mouse is found from the grid's geometry, whatever mark lies over it.
const tooltip = $('tooltip');
function cellUnder(e) {
  const c = svg.getScreenCTM();
  if (!c) return null;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(c.inverse());
  return cellAt(p.x, p.y);
}
function tooltipOf(i, j) {
  if (wave) return waveTooltip(i, j);
  const d = i + j;
  const k = owner(i, j);
  let html = '<p><b>cell (i, j) = (' + i + ', ' + j + ')</b>' +
    (solved ? ': x[' + i + '] = ' + esc(quoted(data.x[i])) + ', y[' + j + '] = ' + esc(quoted(data.y[j])) : '') + '</p>';
  if (bands) {
    const b = Math.floor(i / bands.batch);
    html += '<p>owner p' + k + ': its band holds columns ' + bands.cols[k][0] + '\u2013' + (bands.cols[k][1] - 1) + ' (words of ' + bands.word + ')</p>' +
      '<p>batch b = \u230Ai / B\u230B = ' + b + ', computed at stage k + b = ' + (k + b) + '</p>';
  } else {
    const q = pos(i, j);
    const sp = split(d);
    const [s, end] = diagStartEnd(d, k);
    const how = q < sp.c * sp.r ? 'pos < c\u00B7r = ' + sp.c * sp.r + ', so \u230Apos / c\u230B = ' + k
      : 'pos \u2265 c\u00B7r = ' + sp.c * sp.r + ', so \u230A(pos \u2212 r) / f\u230B = ' + k;
    html += '<p>diagonal d = i + j = ' + d + ', position pos = min(i, n \u2212 1 \u2212 j) = ' + q + '</p>' +
      '<p>L = ' + sp.L + ', p = ' + sp.p + ', c = ' + sp.c + ', f = ' + sp.f + ', r = ' + sp.r + '</p>' +
      '<p>owner cell_proc(' + i + ', ' + j + ') = p' + k + ' (' + how + ')</p>' +
      '<p>diag_start_end(' + d + ', ' + k + ') = [' + s + ', ' + end + '): ' + rowsOf(d, s, end) + '</p>';
  }
  if (solved) html += '<p>' + V + '[' + i + '][' + j + '] = ' + (unitOfCell(i, j) < doneHi ? values[i][j] : 'not computed yet at this step') + '</p>';
  return html;
}
svg.addEventListener('mousemove', (e) => {
  const at = cellUnder(e);
  if (!at) { tooltip.hidden = true; return; }
  tooltip.innerHTML = tooltipOf(at[0], at[1]);
  tooltip.hidden = false;
  const x = Math.min(e.clientX + 16, window.innerWidth - tooltip.offsetWidth - 4);
  const y = Math.min(e.clientY + 16, window.innerHeight - tooltip.offsetHeight - 4);
  tooltip.style.left = Math.max(0, x) + 'px';
  tooltip.style.top = Math.max(0, y) + 'px';
  if (!selected) inspect(at[0], at[1]);
});
svg.addEventListener('click', (e) => {
  const at = cellUnder(e);
  selected = at;
  if (at) inspect(at[0], at[1]);
});
svg.addEventListener('mouseleave', () => { tooltip.hidden = true; });

// ---- For tests: what the page shows, read back from the page itself.
function state() {
  const list = (sel, f) => Array.from(svg.querySelectorAll(sel)).map(f);
  return {
    step: current,
    steps: S,
    slider: Number(slider.value),
    label: label.textContent,
    address: location.hash,
    playing: timer !== null,
    phase: $('phase').textContent,
    what: $('what').textContent,
    formulas: $('formula-text').textContent,
    cell: $('cell-text').textContent,
    outlined: bands ? Array.from(new Set(list('.stage.on', (e) => num(e, 'unit')))) : wave ? list('.front.on', (e) => num(e, 'unit'))
      : list('.diagonal.on', (e) => num(e, 'd')),
    arrows: list('.message.on', (e) => ({ d: num(e, unitKey), from: num(e, 'from'), to: num(e, 'to'), i: num(e, 'i'), j: num(e, 'j'), bytes: num(e, 'bytes') })),
    receiving: svg.querySelectorAll('.cell.receiving').length,
    spans: list('.span.on', (e) => ({ rank: num(e, 'rank'), batch: num(e, 'batch'), kind: e.dataset.kind })),
    done: svg.querySelectorAll('.cell.done').length,
    counters: counterCells.map((tr, k) => ({ rank: k, cells: Number(tr.children[1].textContent), sent: Number(tr.children[2].textContent), received: Number(tr.children[3].textContent) })),
    walkSteps: svg.querySelectorAll('.walk-step.on').length,
    matches: svg.querySelectorAll('.match.on').length,
    hops: list('.hop.on', (e) => ({ t: num(e, 't'), from: num(e, 'from'), to: num(e, 'to'), i: num(e, 'i'), j: num(e, 'j'), bytes: num(e, 'bytes'), prefix: e.dataset.prefix })),
    hopLabel: hopLabel.getAttribute('visibility') === 'visible' ? hopText.textContent : null,
    problem: data.problem,
    engine: data.engine,
    lcs: edit || $('found').hidden ? null : $('found-so-far').textContent,
    alignment: !edit || $('found').hidden ? null : $('found-so-far').textContent,
    panel: document.querySelector('aside').textContent,
    final: !$('final').hidden,
    tooltip: tooltip.hidden ? null : tooltip.textContent,
    contrast: document.body.classList.contains('hc'),
    projector,
    panelOpen: !document.body.classList.contains('folded'),
    strip: $('strip').textContent,
    valuesShown: valueTexts.length > 0 && !document.body.classList.contains('no-values'),
    // The projector's window of cells (null: the whole matrix shows).
    window: win ? { r0: win.r0, c0: win.c0, rows: win.R, cols: win.C } : null,
    ownerVerdict: $('quiz-owner-verdict') ? $('quiz-owner-verdict').textContent : null,
    countVerdict: $('quiz-count-verdict') ? $('quiz-count-verdict').textContent : null,
    // A wave page: the lane's rows and halo messages of the step, and its front's points.
    lane: list('.lane.on .lane-rank', (e) => ({ rank: num(e, 'rank'), lo: e.hasAttribute('data-lo') ? num(e, 'lo') : null,
      hi: e.hasAttribute('data-hi') ? num(e, 'hi') : null, text: e.nextElementSibling ? e.nextElementSibling.textContent : '' })),
    halos: list('.message.on', (e) => ({ step: num(e, 'unit'), from: num(e, 'from'), to: num(e, 'to'), values: num(e, 'values'), bytes: num(e, 'bytes') })),
    laneCounts: list('.lane.on .lane-count', (e) => e.textContent),
    points: list('.front.on .point', (e) => ({ k: num(e, 'k'), owner: num(e, 'owner'), row: num(e, 'row') })),
  };
}
// Texts that overlap a cell's value at this step: every visible text of the grid but the
// values themselves, against every visible value, by their laid-out boxes.
function overlaps() {
  const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && getComputedStyle(e).visibility !== 'hidden' ? r : null; };
  const values = Array.from(svg.querySelectorAll('.cell-text')).map((e) => [e, shown(e)]).filter((v) => v[1]);
  const others = Array.from(svg.querySelectorAll('text:not(.cell-text)')).map((e) => [e, shown(e)]).filter((v) => v[1]);
  const out = [];
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  others.forEach(([e, r]) => values.forEach(([v, q]) => {
    if (meet(r, q)) out.push((e.getAttribute('class') || e.parentNode.getAttribute('class')) + ' "' + e.textContent + '" over the value of (' + v.dataset.i + ', ' + v.dataset.j + ')');
  }));
  return out;
}
window.lcsPage = {
  info: () => ({ steps: S, fill: F, walk: W, end: E, group, walkGroup, diagonals: D, units: D, engine: data.engine }),
  go: (s) => { stop(); go(s); return state(); },
  state,
  problems: () => problems.slice(),
  overlaps,
  // Every step once, with its overlaps: [step, what] for each.
  overlapsAll: () => {
    const out = [];
    for (let s = 0; s < S; s++) { go(s); overlaps().forEach((o) => out.push([s + 1, o])); }
    return out;
  },
  delayAfter,
  select: (i, j) => { selected = [i, j]; inspect(i, j); return $('cell-text').textContent; },
  projector: (on) => { setProjector(on !== false); fit(); return state(); },
  panel: (open) => { setPanel(open !== false); fit(); return state(); },
  cellAt: (x, y) => { const c = svg.getScreenCTM(); const p = new DOMPoint(x, y).matrixTransform(c.inverse()); return cellAt(p.x, p.y); },
  quiz: (on) => { setQuiz(on !== false); return question; },
  answer: (a) => answer(a),
  // Every step once, each laid out: how long the whole play takes without its pauses.
  playAll: () => {
    const t0 = performance.now();
    for (let s = 0; s < S; s++) {
      go(s);
      void svg.getBoundingClientRect().width;
    }
    return performance.now() - t0;
  },
};

// The address may name a step as the label counts it (`#step=12`, `#step=end`), a diagonal
// or stage (`#d=5`), the traceback (`#traceback`) or a hop of the walk (`#hop=1`).
function stepFrom(h) {
  if (h.has('hop') && data.hops.length > 0) {
    const k = Math.min(data.hops.length, Math.max(1, Number(h.get('hop')) || 1));
    return F + Math.floor((data.hops[k - 1].t + 1) / walkGroup);
  }
  if (h.has('traceback')) return F < S ? F : S - 1;
  if (h.has('d')) return Math.floor(Math.max(0, Number(h.get('d')) || 0) / group);
  if (!h.has('step')) return null;
  if (h.get('step') === 'end') return S - 1;
  return Math.max(1, Number(h.get('step')) || 1) - 1;
}
if (fragment.has('contrast')) setContrast(true);
if (fragment.has('projector')) setProjector(true);
problems.forEach((p) => console.error('lcs page: ' + p));
const opening = stepFrom(fragment);
go(opening === null ? 0 : opening);
fit();
if (fragment.has('play')) play();
