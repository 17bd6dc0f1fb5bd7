const std = @import("std");

export fn tokens(src: [*:0]const u8) usize {
    var t = std.zig.Tokenizer.init(std.mem.span(src));
    var n: usize = 0;
    while (true) {
        const tok = t.next();
        if (tok.tag == .eof) break;
        if (tok.tag == .identifier) n += 3 else n += 1;
    }
    return n;
}

export fn float_sum(text: [*]const u8, len: usize) f64 {
    var sum: f64 = 0;
    var it = std.mem.splitScalar(u8, text[0..len], ',');
    while (it.next()) |part| {
        const v = std.fmt.parseFloat(f64, std.mem.trim(u8, part, " ")) catch continue;
        sum += v;
        const i = std.fmt.parseInt(i64, part, 0) catch 0;
        sum += @floatFromInt(i);
    }
    return sum;
}

export fn factorial_digits(n: u32) usize {
    var buf: [1 << 16]u8 = undefined;
    var fba = std.heap.FixedBufferAllocator.init(&buf);
    const alloc = fba.allocator();
    var acc = std.math.big.int.Managed.initSet(alloc, 1) catch return 0;
    var k: u32 = 2;
    while (k <= n) : (k += 1) {
        var f = std.math.big.int.Managed.initSet(alloc, k) catch return 0;
        acc.mul(&acc, &f) catch return 0;
    }
    const s = acc.toString(alloc, 10, .lower) catch return 0;
    return s.len;
}
