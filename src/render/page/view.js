// Part 7: the view. Projector mode (`#projector` in the address, the key p) folds the side
// panel away so that the grid takes the window, keeps the engines' comparison and a legend in
// a strip above it, zooms where the matrix would be small (part 8), and lets no text of the
// grid show under 12 pixels: after every change of the layout the grid's texts are fitted to
// the scale the page draws the picture at. Everywhere, a cell's value shows only where it is 12
// pixels high (a cell of about 18), else a hover tells it; every k-th row and column is
// numbered, regularly, with its byte; the other margins' texts (titles, labels, diagonal
// numbers) give way, by priority, to those they would overlap, and the current diagonal's
// number always shows. The side panel folds and opens with s (or its button) in either mode.
const MIN_PX = 12;
let projector = false;
// Each margin text's own size, in picture units, before any fitting.
const marginTexts = Array.from(svg.querySelectorAll('text:not(.cell-text):not(.owner-tag)')).filter((e) => !e.closest('.hop-label'));
marginTexts.forEach((e) => { e.dataset.px = parseFloat(e.getAttribute('font-size')) || 16; });
const valueTexts = Array.from(svg.querySelectorAll('.cell-text'));
const valuePx = valueTexts.length ? parseFloat(valueTexts[0].getAttribute('font-size')) : 0;
// Pixels on the screen per unit of the picture.
const scale = () => { const c = svg.getScreenCTM(); return c ? Math.hypot(c.a, c.b) : 1; };
// The size of a margin text in projector mode: at least MIN_PX on the screen.
const hopPx = () => (win ? HOP_ZOOMED_PX / scale() : projector ? Math.max(16, (MIN_PX + 0.5) / scale()) : 16);
// A text's box on the screen (a rotated title's too), a pixel wider each side.
const boxOf = (e) => {
  const b = e.getBoundingClientRect();
  return { x: b.left - 1, y: b.top - 1, r: b.right + 1, b: b.bottom + 1 };
};
const meets = (a, b) => a.x < b.r && b.x < a.r && a.y < b.b && b.y < a.b;
let kept = [];
let labelBoxes = [];
// The rows' and columns' indices and bytes: every k-th of each, regularly (k from 1, 2, 5, 10,
// 20, ...), the smallest k whose texts leave each other room at the size they are shown; a
// byte shows only with its index.
const EVERY = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
function numberEvery(s) {
  const shown = (e) => !e.classList.contains('zoom-off');
  const axis = (indexSel, byteSel, key, along) => {
    const texts = Array.from(svg.querySelectorAll(indexSel + ', ' + byteSel)).filter(shown);
    if (texts.length === 0) return;
    // The room a text needs along the axis, on the screen.
    const need = Math.max(...texts.map((e) => {
      const b = e.getBBox();
      return (along === 'x' ? b.width : b.height) * s;
    })) + (along === 'x' ? 4 : 1);
    const cell = (along === 'x' ? cellW : cellH) * s;
    const k = EVERY.find((e) => e * cell >= need) || EVERY[EVERY.length - 1];
    texts.forEach((e) => e.classList.toggle('crowded', num(e, key) % k !== 0));
  };
  axis('.col-index', '.col-byte', 'j', 'x');
  axis('.row-index', '.row-byte', 'i', 'y');
}
function fit() {
  const zoomed = zoom(current);
  const s = scale();
  marginTexts.forEach((e) => {
    if (zoomed && e.closest('.axes, .diagonal-labels')) return;
    const base = Number(e.dataset.px);
    e.setAttribute('font-size', projector ? Math.max(base, (MIN_PX + 0.5) / s) : base);
  });
  document.body.classList.toggle('no-values', !(valuePx * s >= MIN_PX - 0.01));
  numberEvery(s);
  // The indices and bytes first, then the margins by priority: a text that would overlap one
  // kept before it gives way.
  kept = Array.from(svg.querySelectorAll('.col-index, .row-index, .col-byte, .row-byte'))
    .filter((e) => !e.classList.contains('crowded') && !e.classList.contains('zoom-off')).map(boxOf);
  const order = ['.axis-title', '.band-label', '.batch-label', '.timeline-title, .timeline-rank, .timeline-tick'];
  order.forEach((sel) => svg.querySelectorAll(sel).forEach((e) => {
    if (e.classList.contains('zoom-off')) return;
    const box = boxOf(e);
    const crowded = kept.some((k) => meets(k, box));
    e.classList.toggle('crowded', crowded);
    if (!crowded) kept.push(box);
  }));
  labelBoxes = Array.from(svg.querySelectorAll('.diagonal-label')).filter((e) => !e.classList.contains('zoom-off')).map((e) => ({
    d: num(e, 'd'), e, extra: !zoomed && e.hasAttribute('data-extra'), box: boxOf(e),
    tick: svg.querySelector('.diagonal-tick[data-d="' + e.dataset.d + '"]'),
  }));
  declutter();
  if (hopLabel.getAttribute('visibility') === 'visible' && current >= 0) go(current);
}
// The diagonals' numbers: the current one always, the others where they leave it room.
function declutter() {
  if (labelBoxes.length === 0) return;
  const on = lit[1] > lit[0] ? lit[0] : null;
  const room = kept.slice();
  const current = labelBoxes.find((l) => l.d === on);
  if (current) room.push(current.box);
  labelBoxes.forEach((l) => {
    const hide = l !== current && (l.extra || room.some((k) => meets(k, l.box)));
    l.e.classList.toggle('crowded', hide);
    if (l.tick) l.tick.classList.toggle('crowded', hide);
    if (!hide && l !== current) room.push(l.box);
  });
}
function setPanel(open) {
  document.body.classList.toggle('folded', !open);
  $('panel-button').setAttribute('aria-expanded', String(open));
  placeQuiz();
  fit();
}
// The address from its parameters, the flags (projector, contrast) bare words:
// `#projector&step=3`. Replacing it fires no hashchange.
function writeAddress(h) {
  const address = Array.from(h, ([k, v]) => (v === '' ? k : k + '=' + encodeURIComponent(v))).join('&');
  try { history.replaceState(null, '', '#' + address); } catch (e) { /* a page without history */ }
}
// A mode's flag in the address, so that the address always says what the page shows.
function markAddress(flag, on) {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.has(flag) === on) return;
  if (on) h.set(flag, '');
  else h.delete(flag);
  writeAddress(h);
}
function setProjector(on) {
  projector = on;
  document.body.classList.toggle('projector', on);
  $('projector').setAttribute('aria-pressed', String(on));
  markAddress('projector', on);
  setPanel(!on);
}
let fitting = null;
window.addEventListener('resize', () => {
  if (fitting === null) fitting = requestAnimationFrame(() => { fitting = null; fit(); });
});

// ---- The bands engine's batch: messages, bytes and stages for each batch size.
function batchOptions() {
  const box = $('batch-options');
  const options = data.batches;
  const line = data.compare[1];
  if (!box || options.length === 0) return;
  if (line.ranks_used < 2) {
    box.innerHTML = '<p class="note">With a single band the bands engine sends no message, whatever its batch.</p>';
    return;
  }
  const mine = bands ? bands.batch : null;
  let at = options.findIndex((o) => o.batch === (mine || 256));
  if (at < 0) at = options.length - 1;
  box.innerHTML = '<p><label for="batch-slider">bands engine, <code>--batch</code>:</label> ' +
    '<input id="batch-slider" type="range" min="0" max="' + (options.length - 1) + '" value="' + at + '"></p>' +
    '<p id="batch-readout" aria-live="polite"></p>';
  const show = () => {
    const o = options[Number($('batch-slider').value)];
    // Each distinct size with its count: a shorter last batch sends fewer words.
    const each = o.sizes.length === 1 ? ' of ' + plural(o.sizes[0][0], 'byte', 'bytes')
      : o.sizes.length > 1 ? ' (' + o.sizes.map(([bytes, count]) => count + ' of ' + plural(bytes, 'byte', 'bytes')).join(', ') + ')'
      : '';
    $('batch-readout').innerHTML = '<b>batches of ' + plural(o.batch, 'row', 'rows') + '</b>' +
      (o.batch === mine ? ' (this page\u2019s)' : '') + ': ' + plural(o.messages, 'message', 'messages') + each +
      ', ' + plural(o.stages, 'stage', 'stages') + ' (waits); each band idles ' + plural(line.ranks_used - 1, 'stage', 'stages') +
      ' of them while the pipeline fills or drains. The diagonal engine: ' + plural(data.compare[0].messages, 'message', 'messages') +
      ', ' + plural(data.compare[0].steps, 'wait', 'waits') + '.';
  };
  $('batch-slider').addEventListener('input', show);
  show();
}
batchOptions();
