/* Code whose llvm-dis text depends on LLVM's own rules, for the --dis differential test
 * (crates/bitstream-dump/tests/dis.rs builds it with clang 14, 19 and 22 at -O0, -O2 and
 * -O1 -g):
 * - computed gotos: a table of `blockaddress`es of unnamed blocks in a global initializer
 *   (printed with the block's slot), and blocks whose use lists hold a blockaddress as well
 *   as branches (the predecessors' order);
 * - a struct filled field by field and an array, whose stores clang 17 and later track
 *   with `#dbg_assign` under -g at -O1 and above;
 * - lifetime and memcpy intrinsics, whose declarations LLVM gives its own table's
 *   attributes whatever the file says. */
struct point { int x, y; long z; };
extern void consume(struct point *p);
extern void copy_out(void *dst, const void *src, unsigned long n);

int interpret(const unsigned char *code, int n) {
    static void *ops[] = { &&op_inc, &&op_dec, &&op_double, &&op_end };
    int acc = 0, pc = 0;
    goto *ops[code[pc++]];
op_inc:
    acc++;
    if (pc < n) goto *ops[code[pc++]];
    return acc;
op_dec:
    acc--;
    if (pc < n) goto *ops[code[pc++]];
    return acc;
op_double:
    acc *= 2;
    goto *ops[code[pc++]];
op_end:
    return acc;
}

void *label_of(int i) {
    static void *labels[] = { &&first, &&second };
    if (i) goto *labels[i];
first:
    return labels[0];
second:
    return labels[1];
}

int fill(int a, int b, void *out) {
    struct point p;
    p.x = a;
    p.y = b;
    p.z = (long)a * b;
    if (a > 3) consume(&p);
    int window[4] = { a, b, 1, 2 };
    copy_out(out, window, sizeof window);
    __builtin_memcpy(out, &p, sizeof p);
    return p.x + window[a & 3];
}
