/* One band of a long pair (the bands engine's band of columns, `lcs_core::bands`): a pass of its
 * rows (`row0`, `rows`: a batch, or all of them where the band sends and receives nothing) in
 * tiles of 64 rows by TW words (a tile needs the tile above it, whose state words it continues,
 * and the tile to its left, whose carries it takes), in blocks of GQ by GC tiles: a launch takes
 * the blocks of one anti-diagonal of blocks (`diagonal`), a work-group of GQ work-items each,
 * and a work-group its block's tiles one anti-diagonal after the other, work-item l taking row
 * l's tile, a barrier between two (the blocked wavefront of seeds 000 and 004). The LCS (PROBLEM 2: the
 * Allison-Dix step, one carry bit per row) or the edit distance (PROBLEM 1: Myers' step, a
 * vertical delta per row as two bits, +1 and -1).
 *
 * A tile goes word by word, and in each word through its 64 rows: a word's state stays in
 * registers for the 64 rows, the 64 rows' carries in registers across the words, one plane
 * per bit (row r of the tile is bit r). Its carries out wait in `links` (a slot per group of 64
 * rows, overwritten tile after tile along the row) for the tile on its right; where a tile
 * ends a seam's span (every F words, TW dividing F), they are the band's seam, kept for the
 * walk in the store's layout (`seams`: per group, SEAMS seams of PLANES words). The first tile
 * takes the message from the band on the left (`incoming`, PLANES planes of `carry_words`),
 * or the matrix's left edge; the last writes the message to the band on the right
 * (`outgoing`). The state after each K-th row (not the last row's) goes to `checkpoints`,
 * PLANES * WIDTH words each, from the pass's first.
 *
 * x: the rows' bytes; slot: each byte's row of `masks` (WIDTH words each); state: PLANES
 * planes of WIDTH words, the row before the pass's first on entry, its last row's after the
 * pass's last diagonal. */

#define EDIT 1
#define LCS 2

#if PROBLEM == EDIT
#define PLANES 2
#else
#define PLANES 1
#endif

/* Tile (q, c) of the pass: rows row0 + 64 q .. + 64 (its group q), words c TW .. + TW. */
DEVICE void tile(GLOBAL const u8 *x, GLOBAL const u32 *slot, GLOBAL const u64 *masks,
                 GLOBAL u64 *state, u32 row0, u32 rows, u32 m, u32 q, u32 c,
                 GLOBAL const u64 *incoming, u32 has_incoming, u32 carry_words,
                 GLOBAL u64 *outgoing, GLOBAL u64 *links, GLOBAL u64 *seams,
                 GLOBAL u64 *checkpoints)
{
    const u32 chunks = (WIDTH + TW - 1) / TW;
    const u32 r0 = row0 + 64 * q;
    const u32 nr = MIN(64u, row0 + rows - r0);
    const u64 live = nr == 64 ? ALL_ONES : (((u64)1 << nr) - 1);

    /* The carries into the tile, a plane per bit. */
    u64 carry[PLANES];
    for (u32 p = 0; p < PLANES; p++) {
        if (c > 0)
            carry[p] = links[(u64)q * PLANES + p];
        else if (has_incoming)
            carry[p] = incoming[(u64)p * carry_words + q];
        else
            carry[p] = (PROBLEM == EDIT && p == 0) ? ALL_ONES : 0; /* +1, or no carry */
    }
    u32 row_slot[64];
    for (u32 r = 0; r < nr; r++)
        row_slot[r] = slot[x[r0 + r]];
    /* The first checkpoint of the batch, and the rows of this tile that end one. */
    const u32 first_kept = row0 / K;

    const u32 w0 = c * TW, w1 = MIN((u32)WIDTH, w0 + TW);
    for (u32 w = w0; w < w1; w++) {
#if PROBLEM == EDIT
        u64 pv = state[w], mv = state[(u64)WIDTH + w];
        u64 plus = carry[0], minus = carry[1], plus_out = 0, minus_out = 0;
        for (u32 r = 0; r < nr; r++) {
            const u64 eq = masks[(u64)row_slot[r] * WIDTH + w];
            const u64 hp = (plus >> r) & 1, hm = (minus >> r) & 1;
            const u64 xv = eq | mv;
            const u64 eq_h = eq | hm;
            const u64 xh = (((eq_h & pv) + pv) ^ pv) | eq_h;
            const u64 ph = mv | ~(xh | pv);
            const u64 mh = pv & xh;
            const u64 ph_s = (ph << 1) | hp;
            const u64 mh_s = (mh << 1) | hm;
            pv = mh_s | ~(xv | ph_s);
            mv = ph_s & xv;
            plus_out |= (ph >> 63) << r;
            minus_out |= (mh >> 63) << r;
            const u32 i = r0 + r;
            if ((i + 1) % K == 0 && i + 1 < m) {
                GLOBAL u64 *kept = checkpoints + (u64)((i + 1) / K - 1 - first_kept) * PLANES * WIDTH;
                kept[w] = pv;
                kept[(u64)WIDTH + w] = mv;
            }
        }
        state[w] = pv;
        state[(u64)WIDTH + w] = mv;
        carry[0] = plus_out;
        carry[1] = minus_out;
#else
        u64 v = state[w];
        const u64 in = carry[0];
        u64 out = 0;
        for (u32 r = 0; r < nr; r++) {
            const u64 eq = masks[(u64)row_slot[r] * WIDTH + w];
            const u64 u = v & eq;
            const u64 s = v + u;
            const u64 t = s + ((in >> r) & 1);
            out |= (u64)((s < v) | (t < s)) << r;
            v = t | (v & ~u);
            const u32 i = r0 + r;
            if ((i + 1) % K == 0 && i + 1 < m)
                checkpoints[(u64)((i + 1) / K - 1 - first_kept) * WIDTH + w] = v;
        }
        state[w] = v;
        carry[0] = out;
#endif
    }
    const u32 seam = w1 % F == 0 ? w1 / F : 0; /* seam s sits before word (s + 1) F */
    for (u32 p = 0; p < PLANES; p++) {
        if (c + 1 == chunks)
            outgoing[(u64)p * carry_words + q] = carry[p] & live;
        else {
            links[(u64)q * PLANES + p] = carry[p];
            if (seam > 0)
                seams[((u64)q * SEAMS + seam - 1) * PLANES + p] = carry[p] & live;
        }
    }
}

KERNEL bands(GLOBAL const u8 *x, GLOBAL const u32 *slot, GLOBAL const u64 *masks,
             GLOBAL u64 *state, u32 row0, u32 rows, u32 m, u32 diagonal,
             GLOBAL const u64 *incoming, u32 has_incoming, u32 carry_words,
             GLOBAL u64 *outgoing, GLOBAL u64 *links, GLOBAL u64 *seams,
             GLOBAL u64 *checkpoints)
{
    const u32 groups = (rows + 63) / 64;
    const u32 chunks = (WIDTH + TW - 1) / TW;
    const u32 down = (groups + GQ - 1) / GQ;
    const u32 lowest = diagonal >= down ? diagonal - down + 1 : 0;
    /* The work-group's block, on the launch's anti-diagonal of blocks (the host launches as
     * many work-groups as the diagonal has blocks). */
    const u32 bc = lowest + GROUP_ID, bq = diagonal - bc;
    const u32 l = LOCAL_ID, q = bq * GQ + l;
    for (u32 step = 0; step < GQ + GC - 1; step++) {
        if (step >= l && step - l < GC) {
            const u32 c = bc * GC + step - l;
            if (q < groups && c < chunks)
                tile(x, slot, masks, state, row0, rows, m, q, c, incoming, has_incoming,
                     carry_words, outgoing, links, seams, checkpoints);
        }
        BARRIER_GLOBAL();
    }
}
