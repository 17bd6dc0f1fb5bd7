; Call features new in LLVM 20 to 22: riscv_vls_cc(N), captures(...) with its
; components, dead_on_return: llvm-as 22.

declare riscv_vls_cc(128) void @vls()
declare riscv_vls_cc(1024) void @vls_wide()
declare void @escapes(ptr captures(address), ptr captures(ret: address, provenance), ptr captures(address_is_null), ptr captures(read_provenance))
declare void @returns(ptr dead_on_return)

define void @new_call_features(ptr %p, ptr %q) {
  call riscv_vls_cc(128) void @vls()
  call riscv_vls_cc(1024) void @vls_wide()
  call void @escapes(ptr captures(none) %p, ptr captures(ret: address) %q, ptr captures(address, read_provenance) %p, ptr %q)
  call void @returns(ptr dead_on_return %q)
  ret void
}
