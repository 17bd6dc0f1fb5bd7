//! The datalayout string as LLVM's reader sets it (`UpgradeDataLayoutString`, called with
//! the module's triple before the first function or global is read): each target's
//! specifications that later LLVMs added, put where a newer front end writes them.
//!
//! Which LLVM first makes each change was checked with `llvm-dis` 13, 14, 15, 16, 19 and 22
//! on modules clang 13, 14, 16 and 19 wrote for each target
//! (`crates/bitstream-dump/tests/dis.rs`, corpus `targets`); for the versions between those,
//! the release that first carried the change in LLVM's history:
//!
//! | target | change | from LLVM |
//! |---|---|---|
//! | x86 | `-p270:32:32-p271:32:32-p272:64:64` after `e-m:X` (`-p:32:32`) | 10 |
//! | 32-bit x86 MSVC | `-f80:32-` is `-f80:128-` | 14 |
//! | RISC-V 64 | `-n64-` is `-n32:64-` | 16 |
//! | AMDGCN | `-ni:7:8`, `-p7:160:256:256:32`, `-p8:128:128` | 17 |
//! | x86 but the Intel MCU | `-i128:128` after the leading `m`, `p` and `i` specifications | 18 |
//! | AArch64 | `-Fn32` at the end | 19 |
//! | SPIR, SPIR-V (not logical) | `-G1` at the end | 19 |
//! | LoongArch 64 | `-n64-` is `-n32:64-` | 19 (17 and 18 unchecked) |
//! | AMDGCN | `-ni:…:9`, `-p9:192:256:256:32` | 19 |
//! | AArch64 | the x86 address spaces, for any tail after `[Ee]-m:X` | 20 |
//! | SPARC, MIPS 64 (not o32), PPC 64, wasm | `-i128:128` after `-i64:64` | 20 |
//! | AMDGCN | `p8:128:128:128:48` | 21 |
//! | AMDGPU | `m:e-` in front | 22 |
//! | AIX PowerPC | `-f64:32:64` before `-S128` | 22 |
//! | SystemZ | `-S64` after `E` | 23 (not in 22; no LLVM 23 here to check) |

use alloc::borrow::Cow;
use alloc::string::String;

use crate::ir::vocabulary::triple::Triple;

/// The address spaces of 32- and 64-bit pointers (x86's `__ptr32`, `__ptr64`).
const POINTER_SIZE_SPACES: &str = "-p270:32:32-p271:32:32-p272:64:64";

/// The datalayout LLVM `llvm_version`'s reader gives a module that wrote `datalayout`
/// (empty for none) for target `triple`; borrowed where it changes nothing. LLVM prints
/// no `target datalayout` line for an empty result.
///
/// ```
/// use llvm_bitstream_reader::ir::upgrade::upgraded_datalayout;
///
/// // clang 14's x86-64 layout, read by LLVM 19: i128 is 16-byte aligned since LLVM 18.
/// let dl = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128";
/// assert_eq!(
///     upgraded_datalayout(19, dl, b"x86_64-unknown-linux-gnu"),
///     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
/// );
/// assert_eq!(upgraded_datalayout(14, dl, b"x86_64-unknown-linux-gnu"), dl);
/// // A SPIR module without a layout has one from LLVM 19: globals live in address space 1.
/// assert_eq!(upgraded_datalayout(19, "", b"spir64-unknown-unknown"), "G1");
/// ```
pub fn upgraded_datalayout<'d>(llvm_version: u32, datalayout: &'d str, triple: &[u8]) -> Cow<'d, str> {
    let upgraded = upgrade(llvm_version, datalayout, Triple::new(triple));
    if upgraded == datalayout { Cow::Borrowed(datalayout) } else { Cow::Owned(upgraded) }
}

/// `UpgradeDataLayoutString` of LLVM `v`, in its order: the first target that matches
/// returns.
fn upgrade(v: u32, dl: &str, t: Triple<'_>) -> String {
    let mut res = String::from(dl);
    let has_globals_space = dl.contains("-G") || dl.starts_with('G');
    if v >= 19 && (t.is_spir() || t.is_physical_spirv()) && !has_globals_space {
        return if dl.is_empty() { String::from("G1") } else { res + "-G1" };
    }
    if (v >= 16 && t.is_riscv64()) || (v >= 19 && t.is_loongarch64()) {
        // i32 is a native type of 64-bit RISC-V and LoongArch.
        if let Some(at) = dl.find("-n64-") {
            res.replace_range(at..at + 5, "-n32:64-");
        }
        return res;
    }
    if t.is_amdgpu() {
        upgrade_amdgpu(v, dl, t, &mut res, has_globals_space);
        return res;
    }
    if v >= 23 && t.is_systemz() && !dl.is_empty() {
        // The stack alignment, right after the endianness.
        if !dl.contains("-S64") {
            return String::from("E-S64") + &dl[dl.char_indices().nth(1).map_or(dl.len(), |(i, _)| i)..];
        }
        return res;
    }
    if t.is_aarch64() {
        if v >= 19 && !dl.is_empty() && !dl.contains("-Fn32") {
            res.push_str("-Fn32");
        }
        if v >= 20 {
            add_pointer_size_spaces(&mut res, dl, true);
        }
        return res;
    }
    // Mips64 with the o32 ABI (`m:m`) keeps its i128 alignment.
    let i128_after_i64 = t.is_sparc() || (t.is_mips64() && !dl.contains("m:m")) || t.is_ppc64() || t.is_wasm();
    if v >= 20 && i128_after_i64 && !res.contains("-i128:128") {
        if let Some(at) = res.find("-i64:64") {
            res.insert_str(at + "-i64:64".len(), "-i128:128");
        }
    }
    if v >= 22 && t.is_ppc() && t.is_aix() && !dl.contains("f64:32:64") && !dl.is_empty() {
        let at = res.find("-S128").unwrap_or(res.len());
        res.insert_str(at, "-f64:32:64");
    }
    if !t.is_x86() {
        return res;
    }
    if v >= 10 {
        add_pointer_size_spaces(&mut res, dl, v >= 20);
    }
    if v >= 18 && !t.is_iamcu() && !res.contains("-i128:128") {
        if let Some(at) = i128_position(&res) {
            res.insert_str(at, "-i128:128");
        }
    }
    if v >= 14 && t.is_windows_msvc() && t.is_x86_32() {
        // 32-bit MSVC's f80 is 16-byte aligned.
        if let Some(at) = res.find("-f80:32-") {
            res.replace_range(at..at + 8, "-f80:128-");
        }
    }
    res
}

/// The AMDGPU part: the constant address space, then (AMDGCN) the non-integral address
/// spaces and the sizes of the buffer pointers, then ELF mangling in front.
fn upgrade_amdgpu(v: u32, dl: &str, t: Triple<'_>, res: &mut String, has_globals_space: bool) {
    if !has_globals_space {
        res.push_str(if res.is_empty() { "G1" } else { "-G1" });
    }
    if t.is_amdgcn() {
        let has = |spec: &str| dl.contains(&*alloc::format!("-{spec}")) || dl.starts_with(spec);
        // The non-integral spaces go before the new sizes, as LLVM appends them.
        if !has("ni") {
            res.push_str(match v {
                ..17 => "-ni:7",
                17 | 18 => "-ni:7:8",
                _ => "-ni:7:8:9",
            });
        }
        if v >= 17 && dl.ends_with("ni:7") {
            res.push_str(if v >= 19 { ":8:9" } else { ":8" });
        }
        if v >= 19 && dl.ends_with("ni:7:8") {
            res.push_str(":9");
        }
        if v >= 17 {
            if !has("p7") {
                res.push_str("-p7:160:256:256:32");
            }
            if !has("p8") {
                res.push_str(if v >= 21 { "-p8:128:128:128:48" } else { "-p8:128:128" });
            }
        }
        const OLD_P8: &str = "-p8:128:128-";
        if v >= 21 && dl.contains(OLD_P8) {
            if let Some(at) = res.find(OLD_P8) {
                res.replace_range(at..at + OLD_P8.len(), "-p8:128:128:128:48-");
            }
        }
        if v >= 19 && !has("p9") {
            res.push_str("-p9:192:256:256:32");
        }
    }
    if v >= 22 && !dl.contains("m:e") {
        *res = if res.is_empty() { String::from("m:e") } else { alloc::format!("m:e-{res}") };
    }
}

/// The address spaces of 32- and 64-bit pointers, after a leading `e-m:X` and an optional
/// `-p:32:32`, unless the original `dl` has them. LLVM 10 to 19 match
/// `(e-m:[a-z](-p:32:32)?)(-[if]64:.*$)`; from LLVM 20 (`any_tail`),
/// `^([Ee]-m:[a-z](-p:32:32)?)(-.*)$`.
fn add_pointer_size_spaces(res: &mut String, dl: &str, any_tail: bool) {
    if dl.contains(POINTER_SIZE_SPACES) {
        return;
    }
    let b = res.as_bytes();
    let endian = if any_tail { matches!(b.first(), Some(b'e' | b'E')) } else { b.first() == Some(&b'e') };
    if !endian || !res[1..].starts_with("-m:") || !b.get(4).is_some_and(u8::is_ascii_lowercase) {
        return;
    }
    let tail_ok = |at: usize| {
        let tail = &res[at..];
        if any_tail { tail.starts_with('-') } else { tail.starts_with("-i64:") || tail.starts_with("-f64:") }
    };
    // The optional `-p:32:32` is taken when what follows it still matches (the regex's
    // greedy `?`), else left to the tail.
    let at = if res[5..].starts_with("-p:32:32") && tail_ok(13) {
        13
    } else if tail_ok(5) {
        5
    } else {
        return;
    };
    res.insert_str(at, POINTER_SIZE_SPACES);
}

/// Where `-i128:128` goes in an x86 layout: between the runs of
/// `^(e(-[mpi][^-]*)*)((-[^mpi][^-]*)*)$`, `None` where the layout does not match.
fn i128_position(dl: &str) -> Option<usize> {
    let b = dl.as_bytes();
    if b.first() != Some(&b'e') {
        return None;
    }
    let skip_body = |mut i: usize| {
        while i < b.len() && b[i] != b'-' {
            i += 1;
        }
        i
    };
    let mut i = 1;
    // The first run, greedily: a second-run specification cannot start with m, p or i,
    // so giving any of these back could not make the rest match.
    while i + 1 < b.len() && b[i] == b'-' && matches!(b[i + 1], b'm' | b'p' | b'i') {
        i = skip_body(i + 2);
    }
    let split = i;
    while i < b.len() {
        if b[i] != b'-' || i + 1 >= b.len() || matches!(b[i + 1], b'm' | b'p' | b'i') {
            return None;
        }
        i = skip_body(i + 2);
    }
    Some(split)
}

#[cfg(test)]
mod tests {
    use super::upgraded_datalayout as up;

    /// What `llvm-dis` 16, 19 and 22 print for LLVM's `dilocalvariable-3.9.ll.bc`.
    #[test]
    fn aarch64() {
        let old = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128";
        let nx = b"aarch64-nintendo-nx-elf";
        assert_eq!(up(16, old, nx), old);
        assert_eq!(up(19, old, nx), alloc::format!("{old}-Fn32"));
        assert_eq!(
            up(22, old, nx),
            "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
        );
        let new = up(22, old, nx).into_owned();
        assert_eq!(up(22, &new, nx), new);
        assert_eq!(up(22, "", nx), "");
    }

    /// What `llvm-dis` of each version prints for an x86-64 datalayout of LLVM 9, 14, 18.
    #[test]
    fn x86() {
        let llvm9 = "e-m:e-i64:64-f80:128-n8:16:32:64-S128";
        let llvm14 = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128";
        let llvm18 = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";
        let linux = b"x86_64-unknown-linux-gnu";
        assert_eq!(up(14, llvm9, linux), llvm14);
        assert_eq!(up(19, llvm9, linux), llvm18);
        assert_eq!(up(14, llvm14, linux), llvm14);
        assert_eq!(up(22, llvm14, linux), llvm18);
        assert_eq!(up(22, llvm18, linux), llvm18);
        // 32-bit: after `p:32:32`.
        let i686 = "e-m:e-p:32:32-f64:32:64-f80:32-n8:16:32-S128";
        assert_eq!(
            up(14, i686, b"i686-pc-linux-gnu"),
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"
        );
        assert_eq!(
            up(19, i686, b"i686-pc-linux-gnu"),
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
        );
        // The Intel MCU keeps 4-byte i128.
        let mcu = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:32-f64:32-f128:32-n8:16:32-a:0:32-S32";
        assert_eq!(up(22, mcu, b"i386-pc-elfiamcu"), mcu);
        // clang 13's 32-bit MSVC layout: f80 16-byte aligned from LLVM 14.
        let msvc = "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:32-n8:16:32-a:0:32-S32";
        assert_eq!(up(13, msvc, b"i686-pc-windows-msvc"), msvc);
        assert_eq!(
            up(14, msvc, b"i686-pc-windows-msvc"),
            "e-m:x-p:32:32-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32-a:0:32-S32"
        );
        assert_eq!(up(22, msvc, b"i686-pc-windows-gnu"), msvc.replace("i64:64-", "i64:64-i128:128-"));
        assert_eq!(
            up(19, i686, b"i586-intel-elfiamcu"),
            "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"
        );
        assert!(matches!(up(22, llvm18, linux), alloc::borrow::Cow::Borrowed(_)));
        // A layout the i128 pattern does not match is left.
        assert_eq!(up(19, "e-m:e-x-", linux), "e-m:e-x-");
        // From LLVM 20 the address spaces go before any tail.
        assert_eq!(up(22, "e-m:e-x-", linux), "e-m:e-p270:32:32-p271:32:32-p272:64:64-x-");
    }

    /// What `llvm-dis` 13 to 22 print for clang 13's and 14's modules of these targets.
    #[test]
    fn other_targets() {
        let rv = "e-m:e-p:64:64-i64:64-i128:128-n64-S128";
        assert_eq!(up(15, rv, b"riscv64-unknown-linux-gnu"), rv);
        assert_eq!(up(16, rv, b"riscv64-unknown-linux-gnu"), "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128");
        assert_eq!(up(16, rv, b"loongarch64-unknown-linux-gnu"), rv);
        assert_eq!(up(19, rv, b"loongarch64-unknown-linux-gnu"), "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128");
        let spir = "e-i64:64-v16:16-v24:32";
        assert_eq!(up(16, spir, b"spir64-unknown-unknown"), spir);
        assert_eq!(up(19, spir, b"spirv64-unknown-unknown"), alloc::format!("{spir}-G1"));
        assert_eq!(up(22, spir, b"spirv-unknown-vulkan"), spir);
        let ppc = "e-m:e-i64:64-n32:64-S128-v256:256:256-v512:512:512";
        assert_eq!(up(19, ppc, b"powerpc64le-unknown-linux-gnu"), ppc);
        assert_eq!(up(22, ppc, b"powerpc64le-unknown-linux-gnu"), ppc.replace("i64:64", "i64:64-i128:128"));
        let aix = "E-m:a-i64:64-n32:64-S128-v256:256:256-v512:512:512";
        assert_eq!(
            up(22, aix, b"powerpc64-ibm-aix"),
            "E-m:a-i64:64-i128:128-n32:64-f64:32:64-S128-v256:256:256-v512:512:512"
        );
        assert_eq!(up(22, "E-m:a-p:32:32-i64:64-n32", b"powerpc-ibm-aix"), "E-m:a-p:32:32-i64:64-n32-f64:32:64");
        let o32 = "E-m:m-p:32:32-i8:8:32-i16:16:32-i64:64-n32-S64";
        assert_eq!(up(22, o32, b"mips64-unknown-linux-gnu"), o32);
        let r600 = "e-p:32:32-i64:64-v16:16-n32:64-S32-A5-G1";
        assert_eq!(up(19, r600, b"r600-unknown-unknown"), r600);
        assert_eq!(up(22, r600, b"r600-unknown-unknown"), alloc::format!("m:e-{r600}"));
        let gcn = "e-p:64:64-p1:64:64-n32:64-S32-A5-G1-ni:7";
        assert_eq!(up(16, gcn, b"amdgcn-amd-amdhsa"), gcn);
        assert_eq!(
            up(19, gcn, b"amdgcn-amd-amdhsa"),
            alloc::format!("{gcn}:8:9-p7:160:256:256:32-p8:128:128-p9:192:256:256:32")
        );
        assert_eq!(
            up(22, gcn, b"amdgcn-amd-amdhsa"),
            alloc::format!("m:e-{gcn}:8:9-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32")
        );
        let gcn19 = "e-p:64:64-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-G1-ni:7:8:9";
        assert_eq!(
            up(22, gcn19, b"amdgcn-amd-amdhsa"),
            alloc::format!("m:e-{}", gcn19.replace("p8:128:128", "p8:128:128:128:48"))
        );
        let z = "E-m:e-i1:8:16-i8:8:16-i64:64-f128:64-a:8:16-n32:64";
        assert_eq!(up(22, z, b"s390x-unknown-linux-gnu"), z);
        assert_eq!(up(23, z, b"s390x-unknown-linux-gnu"), "E-S64-m:e-i1:8:16-i8:8:16-i64:64-f128:64-a:8:16-n32:64");
    }
}
