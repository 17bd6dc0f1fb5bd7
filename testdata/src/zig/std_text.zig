const std = @import("std");

export fn words(text: [*]const u8, len: usize, out: [*]u8, cap: usize) usize {
    var fba_buf: [16384]u8 = undefined;
    var fba = std.heap.FixedBufferAllocator.init(&fba_buf);
    const alloc = fba.allocator();
    var counts: std.AutoArrayHashMapUnmanaged(u64, u32) = .empty;
    var it = std.mem.tokenizeAny(u8, text[0..len], " \t\r\n,.;");
    while (it.next()) |word| {
        var lower: [64]u8 = undefined;
        const n = @min(word.len, lower.len);
        _ = std.ascii.lowerString(lower[0..n], word[0..n]);
        const key = std.hash.Wyhash.hash(0, lower[0..n]);
        const gop = counts.getOrPut(alloc, key) catch return 0;
        if (!gop.found_existing) gop.value_ptr.* = 0;
        gop.value_ptr.* += 1;
    }
    var total: f64 = 0;
    for (counts.values()) |v| total += @sin(@as(f64, @floatFromInt(v))) * @exp(0.5) + std.math.sqrt(@as(f64, @floatFromInt(v)));
    const crc = std.hash.Crc32.hash(text[0..len]);
    var enc: [128]u8 = undefined;
    const b64 = std.base64.standard.Encoder.encode(&enc, text[0..@min(len, 64)]);
    const s = std.fmt.bufPrint(out[0..cap], "{d} {d:.3} {x} {s} {}", .{ counts.count(), total, crc, b64, std.unicode.utf8ValidateSlice(text[0..len]) }) catch return 0;
    return s.len;
}

const Item = struct { key: u32, weight: f32 };

fn lessThan(_: void, a: Item, b: Item) std.math.Order {
    return std.math.order(a.weight, b.weight);
}

export fn schedule(keys: [*]const u32, n: usize) u32 {
    var buf: [8192]u8 = undefined;
    var fba = std.heap.FixedBufferAllocator.init(&buf);
    var q: std.PriorityQueue(Item, void, lessThan) = .initContext({});
    const qa = fba.allocator();
    var set: std.bit_set.IntegerBitSet(64) = .empty;
    for (keys[0..n]) |k| {
        q.push(qa, .{ .key = k, .weight = @floatFromInt(k % 97) }) catch break;
        set.set(k % 64);
    }
    var acc: u32 = @intCast(set.count());
    while (q.pop()) |item| acc = acc *% 31 +% item.key;
    return acc;
}
