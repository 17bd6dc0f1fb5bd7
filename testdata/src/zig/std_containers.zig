const std = @import("std");

export fn run(seed: u64) u64 {
    var gpa: std.heap.DebugAllocator(.{}) = .init;
    defer _ = gpa.deinit();
    const alloc = gpa.allocator();
    var map: std.StringHashMap(u64) = .init(alloc);
    defer map.deinit();
    var prng = std.Random.DefaultPrng.init(seed);
    const r = prng.random();
    var list: std.ArrayList(u64) = .empty;
    defer list.deinit(alloc);
    var i: usize = 0;
    while (i < 100) : (i += 1) {
        list.append(alloc, r.int(u64)) catch return 0;
    }
    std.mem.sort(u64, list.items, {}, std.sort.asc(u64));
    var buf: [64]u8 = undefined;
    const s = std.fmt.bufPrint(&buf, "{d}-{x}", .{ list.items[0], list.items[99] }) catch return 0;
    map.put(s, 1) catch return 0;
    var h = std.crypto.hash.sha2.Sha256.init(.{});
    h.update(s);
    var out: [32]u8 = undefined;
    h.final(&out);
    var b3: [32]u8 = undefined;
    std.crypto.hash.Blake3.hash(s, &b3, .{});
    const parsed = std.json.parseFromSlice(std.json.Value, alloc, "{\"a\": [1, 2.5, \"x\"]}", .{}) catch return 0;
    defer parsed.deinit();
    return std.mem.readInt(u64, out[0..8], .little) ^ std.mem.readInt(u64, b3[0..8], .little) ^ map.count();
}
