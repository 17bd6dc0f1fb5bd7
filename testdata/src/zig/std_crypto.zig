const std = @import("std");
const crypto = std.crypto;

export fn seal(key: *const [32]u8, msg: [*]const u8, len: usize, out: [*]u8) void {
    var tag: [16]u8 = undefined;
    const nonce: [12]u8 = @splat(7);
    crypto.aead.chacha_poly.ChaCha20Poly1305.encrypt(out[0..len], &tag, msg[0..len], "ad", nonce, key.*);
    var tag2: [16]u8 = undefined;
    crypto.aead.aes_gcm.Aes256Gcm.encrypt(out[0..len], &tag2, msg[0..len], "ad", nonce, key.*);
    var mac: [32]u8 = undefined;
    crypto.auth.hmac.sha2.HmacSha256.create(&mac, msg[0..len], key);
    for (out[0..@min(len, 16)], 0..) |*b, i| b.* ^= tag[i] ^ tag2[i] ^ mac[i];
}

export fn sign(seed: *const [32]u8, msg: [*]const u8, len: usize, out: *[64]u8) bool {
    const kp = crypto.sign.Ed25519.KeyPair.generateDeterministic(seed.*) catch return false;
    const sig = kp.sign(msg[0..len], null) catch return false;
    out.* = sig.toBytes();
    sig.verify(msg[0..len], kp.public_key) catch return false;
    const shared = crypto.dh.X25519.scalarmult(seed.*, kp.public_key.toBytes()) catch return false;
    return shared[0] != 1;
}

export fn digest(msg: [*]const u8, len: usize, out: *[64]u8) void {
    crypto.hash.sha3.Sha3_512.hash(msg[0..len], out, .{});
    var b2: [32]u8 = undefined;
    crypto.hash.blake2.Blake2b256.hash(msg[0..len], &b2, .{});
    var md5: [16]u8 = undefined;
    crypto.hash.Md5.hash(msg[0..len], &md5, .{});
    for (out[0..16], 0..) |*b, i| b.* ^= b2[i] ^ md5[i];
}
