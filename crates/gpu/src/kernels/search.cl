/* The search: every end within K edits of each pattern in a window of text (Sellers'
 * semi-global DP, D[0][j] = 0, by Myers' step). A work-item per pattern and chunk of the
 * window, a work-group per pattern and GROUP_SIZE chunks, the pattern's match table (SIGMA =
 * 256 rows: the text's bytes as they are) in local memory.
 *
 * A chunk starts from a fresh column m + min(K, m) bytes before it (or at the window's start),
 * which finds every match ending in it with its distance: a match within K edits spans at most
 * m + K bytes, and no column before its start changes its distance (the warm-up of
 * `lcs_core::search::chunks`). Ends before `from` are the caller's warm-up, not reported.
 *
 * groups: three words a group, (pattern, first chunk, chunks). hits: three words a hit
 * (pattern, the window offset of its last byte, distance), `found` counting them all; past
 * `capacity` they are counted, not written, and the host runs the window again with room for
 * them. A pattern of more than WORDS words takes one launch per stripe, its columns' carries
 * waiting in `carries`, `carry_stride` bytes an item. */

KERNEL search(GLOBAL const u8 *text, u32 len, u32 from, GLOBAL const u32 *pattern_len,
              GLOBAL const u64 *tables, GLOBAL const u64 *table_at, GLOBAL const u32 *groups,
              u32 chunk, u32 k, u32 stripe, GLOBAL i8 *carries, u32 carry_stride,
              GLOBAL u32 *hits, u32 capacity, GLOBAL u32 *found)
{
    LOCAL u64 table[SIGMA * WORDS];
    GLOBAL const u32 *group = groups + 3 * (u64)GROUP_ID;
    const u32 p = group[0], count = group[2];
    const u32 m = pattern_len[p];
    const u32 pattern_words = (m + 63) / 64;
    const u32 w0 = stripe * WORDS;
    load_table(table, tables + table_at[p], pattern_words, w0);
    BARRIER();
    const u32 l = LOCAL_ID;
    if (l >= count || w0 >= pattern_words)
        return;
    const u32 c0 = (group[1] + l) * chunk;
    if (c0 >= len)
        return;
    const u32 c1 = MIN(len, c0 + chunk);
    const u32 warm = m + MIN(k, m);
    const u32 start = c0 > warm ? c0 - warm : 0;
    const u32 report = c0 > from ? c0 : from;
    const u32 words = MIN((u32)WORDS, pattern_words - w0);
    const int first = stripe == 0, last = w0 + WORDS >= pattern_words;
    GLOBAL i8 *carry =
        carries + (first && last ? 0 : ((u64)GROUP_ID * GROUP_SIZE + l) * carry_stride);
    u64 pv[WORDS], mv[WORDS];
    fresh_column(pv, mv);
    u32 score = m;
    const u32 lw = last ? (m - 1) / 64 - w0 : WORDS;
    const u32 lb = (m - 1) % 64;
    for (u32 j = start; j < c1; j++) {
        const int h = first ? 0 : carry[j - start];
        const int leaving =
            edit_column(table + (u32)text[j] * WORDS, pv, mv, words, h, lw, lb, &score);
        if (!last)
            carry[j - start] = (i8)leaving;
        else if (score <= k && j >= report) {
            const u32 at = COUNT_ONE(found);
            if (at < capacity) {
                hits[3 * (u64)at] = p;
                hits[3 * (u64)at + 1] = j;
                hits[3 * (u64)at + 2] = score;
            }
        }
    }
}
