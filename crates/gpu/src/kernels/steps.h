/* The bit-parallel steps on 64-bit words, as the CPU's `bitpar` family takes them: one word
 * of a column, then one column of a stripe of WORDS words (rows 64 w0 .. 64 (w0 + WORDS) - 1
 * of the pattern). A pattern longer than a stripe goes in several, one launch each, and what
 * crosses from one stripe to the next in a column (the edit distance's horizontal delta, the
 * LCS's carry) waits in global memory a byte per column. */

/* Myers' step on one word (Myers 1999; the block form of Hyyro 2003 as edlib writes it):
 * the vertical deltas pv/mv of 64 rows, the text byte's match bits eq, the horizontal delta
 * h entering at the word's top. Returns the delta leaving its bottom; *ph and *mh get every row's
 * horizontal delta (bit i: row 64 w + i + 1), before the shift. */
DEVICE int edit_word(u64 eq, u64 *pv, u64 *mv, int h, u64 *ph, u64 *mh)
{
    const u64 p = *pv, m = *mv;
    const u64 xv = eq | m;
    if (h < 0)
        eq |= 1;
    const u64 xh = (((eq & p) + p) ^ p) | eq;
    u64 hp = m | ~(xh | p);
    u64 hm = p & xh;
    *ph = hp;
    *mh = hm;
    const int out = (int)(hp >> 63) - (int)(hm >> 63);
    hp <<= 1;
    hm <<= 1;
    if (h < 0)
        hm |= 1;
    else if (h > 0)
        hp |= 1;
    *pv = hm | ~(xv | hp);
    *mv = hp & xv;
    return out;
}

/* The LCS step on one word (Allison and Dix 1986, Crochemore et al. 2001): v' = (v + u) |
 * (v - u) with u = v & eq, the sum carried from word to word. Returns the carry out. */
DEVICE u32 lcs_word(u64 eq, u64 *v, u32 carry)
{
    const u64 x = *v;
    const u64 u = x & eq;
    const u64 s = x + u;
    const u64 t = s + carry;
    *v = t | (x & ~u);
    return (u32)(s < x) | (u32)(t < s);
}

/* One column of the edit distance over the stripe: `eq` the byte's row of the stripe's table,
 * `words` of its WORDS in the pattern, `h` the delta entering its top. Returns the delta
 * leaving it; where the pattern's last row lies in word `lw` (bit `lb`), adds its horizontal
 * delta to *score. */
DEVICE int edit_column(LOCAL_ARG const u64 *eq, u64 *pv, u64 *mv, u32 words, int h, u32 lw,
                       u32 lb, u32 *score)
{
    for (u32 w = 0; w < WORDS; w++) {
        if (w < words) {
            u64 ph, mh;
            h = edit_word(eq[w], &pv[w], &mv[w], h, &ph, &mh);
            if (w == lw)
                *score += (u32)((ph >> lb) & 1) - (u32)((mh >> lb) & 1);
        }
    }
    return h;
}

/* The column before any text: D[i] = i, every vertical delta +1. */
DEVICE void fresh_column(u64 *pv, u64 *mv)
{
    for (u32 w = 0; w < WORDS; w++) {
        pv[w] = ALL_ONES;
        mv[w] = 0;
    }
}

/* One column of the LCS over the stripe; returns the carry leaving its top word. */
DEVICE u32 lcs_column(LOCAL_ARG const u64 *eq, u64 *v, u32 words, u32 carry)
{
    for (u32 w = 0; w < WORDS; w++) {
        if (w < words)
            carry = lcs_word(eq[w], &v[w], carry);
    }
    return carry;
}

/* Copies the stripe's part of a pattern's match table (SIGMA rows of `pattern_words` words in
 * global memory, row-major) into `table` (SIGMA rows of WORDS), words past the pattern zero,
 * every work-item of the group a share. */
DEVICE void load_table(LOCAL_ARG u64 *table, GLOBAL const u64 *rows, u32 pattern_words, u32 w0)
{
    for (u32 i = LOCAL_ID; i < SIGMA * WORDS; i += GROUP_SIZE) {
        const u32 c = i / WORDS, w = w0 + i % WORDS;
        table[i] = w < pattern_words ? rows[(u64)c * pattern_words + w] : 0;
    }
}
